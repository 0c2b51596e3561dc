import { writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import { BUNDLED_FIXTURES, loadFixtures } from '../src/data/fixtures.js'
import { generateFixtureData } from '../src/data/generate.js'
import type { CountingLine } from '../src/contract/schemas.js'

export const BENCH_TOKEN = 'bench-token'
export const AUTH_HEADERS = { authorization: `Bearer ${BENCH_TOKEN}` }

/** The three routes compared: one line, a short list and a long one. */
export const ROUTES = [
  { name: 'retrieve', path: '/nvr/v1/cameras/cam-10/counting_lines/line-5' },
  { name: 'list10', path: '/nvr/v1/cameras/cam-10/counting_lines' },
  { name: 'list1000', path: '/nvr/v1/cameras/cam-1000/counting_lines' }
] as const

/** Writes the fixture file of the throughput runs: camera cam-10 with 10 generated lines, cam-1000 with 1000. */
export async function writeBenchFixtures (dir: string): Promise<string> {
  const linesOf = (cameraId: string, count: number): CountingLine[] =>
    (generateFixtureData({ cameras: 1, linesPerCamera: count }).counting_lines ?? [])
      .map(line => ({ ...line, camera_id: cameraId }))
  const file = join(dir, 'bench-fixtures.json')
  await writeFile(file, JSON.stringify({ counting_lines: [...linesOf('cam-10', 10), ...linesOf('cam-1000', 1000)] }))
  return file
}

/** Fetches what the mock serves on each path and writes it as the bare server's routes file. */
export async function writeBareRoutes (dir: string, name: string, baseUrl: string, paths: readonly string[]): Promise<string> {
  const routes = await Promise.all(paths.map(async path => {
    const response = await fetch(`${baseUrl}${path}`, { headers: AUTH_HEADERS })
    if (response.status !== 200) throw new Error(`${path} answered ${response.status}, not 200`)
    return { url: path, body: await response.text() }
  }))
  const file = join(dir, `${name}-routes.json`)
  await writeFile(file, JSON.stringify(routes))
  return file
}

/** A line of the bundled fixtures, to ask for when timing the start. */
export async function bundledLinePath (): Promise<string> {
  const line = (await loadFixtures(BUNDLED_FIXTURES)).lines[0] as CountingLine
  return `/nvr/v1/cameras/${encodeURIComponent(line.camera_id)}/counting_lines/${encodeURIComponent(line.id)}`
}

/** Paths spread over every camera and line of generated data, so lookups are not all for one hot key. */
export function spreadPaths (cameras: number, linesPerCamera: number, count: number, list: boolean): string[] {
  return Array.from({ length: count }, (_, index) => {
    // Two coprime strides walk the cameras and lines in an order with no pattern a cache could exploit.
    const camera = (index * 7919) % cameras + 1
    const line = (index * 104729) % linesPerCamera + 1
    return list ? `/nvr/v1/cameras/cam-${camera}/counting_lines` : `/nvr/v1/cameras/cam-${camera}/counting_lines/line-${line}`
  })
}
