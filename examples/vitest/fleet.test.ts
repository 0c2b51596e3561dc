import { afterAll, afterEach, beforeAll, expect, test } from 'vitest'
import { startMockFleet, type MockFleet } from 'mock-nvr'

// The code under test: a backend that syncs the counting lines of every camera of every NVR it knows.
interface Nvr { name: string, url: string, cameras: string[] }
async function syncAll (nvrs: Nvr[], token: string) {
  const synced = new Map<string, number>()
  const failed: string[] = []
  await Promise.all(nvrs.map(async nvr => {
    try {
      let lines = 0
      for (const camera of nvr.cameras) {
        const response = await fetch(`${nvr.url}/nvr/v1/cameras/${encodeURIComponent(camera)}/counting_lines`, { headers: { authorization: `Bearer ${token}` } })
        if (!response.ok) throw new Error(`${nvr.name} answered ${response.status}`)
        lines += (await response.json() as { content: unknown[] }).content.length
      }
      synced.set(nvr.name, lines)
    } catch {
      failed.push(nvr.name)
    }
  }))
  return { synced, failed }
}

let fleet: MockFleet
const nvrs = () => fleet.devices.map(device => ({
  name: device.name,
  url: device.url,
  cameras: (device.data().cameras ?? []).map(camera => camera.id)
}))

// 50 devices, each with 2 generated cameras of 3 lines: its own lines, the same for the same seed.
beforeAll(async () => { fleet = await startMockFleet({ count: 50, generate: { cameras: 2, linesPerCamera: 3 }, seed: 42 }) })
afterAll(() => fleet.close())
afterEach(async () => await fleet.reset())

test('syncs every line of every camera of the 50 NVRs', async () => {
  const { synced, failed } = await syncAll(nvrs(), 'backend-token')
  expect(failed).toEqual([])
  expect(synced.size).toBe(50)
  expect([...synced.values()].every(lines => lines === 6)).toBe(true)
  expect(fleet.requests()).toHaveLength(100)
})

test('one NVR failing does not stop the others', async () => {
  fleet.device('nvr-017')?.injectFault({ status: 503 })
  const { synced, failed } = await syncAll(nvrs(), 'backend-token')
  expect(failed).toEqual(['nvr-017'])
  expect(synced.size).toBe(49)
})
