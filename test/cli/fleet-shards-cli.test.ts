import { createServer } from 'node:net'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runCli, type CliRun } from '../helpers/cli-process.js'

// Three shards as three processes, against the one process that serves the whole fleet, on the same ports.
const DEVICES = 10
const ADMIN = { authorization: 'Bearer shard-admin' }
const FLEET = ['--devices', String(DEVICES), '--generate', '2x3', '--seed', '7', '--offline-fraction', '0.2', '--flapping-fraction', '0.4', '--clock', 'manual', '--admin-token', 'shard-admin', '--log-level', 'silent']
// Clock moves that cross the flapping devices' 5 s up, 5 s down at several phases.
const ADVANCES = [1200, 1300, 2600, 900, 4100, 3000]

interface Listed { name: string, url: string, cameras: string[], state: string }
interface Manifest { devices: Array<{ name: string, url: string, cameras: string[], health?: { state: string, next: Array<{ at: string, state: string }> } }> }

interface Observed {
  devices: Array<Omit<Listed, 'state'>>
  /** Each device's list of each camera: the bytes, or why there were none (an offline device refuses). */
  lists: Record<string, string>
  /** The manifests joined, each timeline's times made relative to its own process's clock. */
  manifest: Manifest['devices']
  /** The state of every device after each clock move. */
  timeline: string[][]
}

t.test('shards 1/3, 2/3 and 3/3 together serve the fleet one process serves: names, ports, data, manifests and timelines', async t => {
  const dir = t.testdir({})
  const port = await freePortRange(-1, DEVICES + 3)
  const whole = await observe([[...FLEET, '--port', String(port), '--manifest', join(dir, 'whole.json')]], t)
  const shards = await observe([1, 2, 3].map(index => [
    ...FLEET, '--port', String(port), '--shard', `${index}/3`, '--control-port', String(port + DEVICES - 1 + index), '--manifest', join(dir, `shard-${index}.json`)
  ]), t, sizes => t.strictSame(sizes, [4, 3, 3], 'contiguous slices of 4, 3 and 3 devices'))
  t.equal(whole.devices.length, DEVICES)
  t.strictSame(whole.devices.map(device => new URL(device.url).port), Array.from({ length: DEVICES }, (_, index) => String(port + index)))
  t.strictSame(shards.devices, whole.devices, 'the same names, ports and cameras')
  t.strictSame(shards.lists, whole.lists, 'the same bytes of every list')
  t.ok(Object.values(whole.lists).some(list => list.startsWith('{')) && Object.values(whole.lists).includes('ECONNREFUSED'), 'some devices serve, some are offline')
  t.strictSame(shards.manifest, whole.manifest, 'the manifests joined are the whole fleet\'s')
  t.strictSame(shards.timeline, whole.timeline, 'the same health at every step of the clock')
  t.ok(new Set(whole.timeline.map(states => states.join())).size > 2, 'the health changes as the clock moves')
})

/** Starts one process per argument list, reads what they serve together, and stops them all. */
async function observe (commands: string[][], t: Test, sizes?: (sizes: number[]) => void): Promise<Observed> {
  const runs = commands.map(args => runCli(args))
  t.teardown(() => { for (const run of runs) run.child.kill('SIGKILL') })
  const controls = await Promise.all(runs.map(ready))
  const listed = await Promise.all(controls.map(async control => await devicesOf(control)))
  sizes?.(listed.map(devices => devices.length))
  const devices = listed.flat()
  const lists: Record<string, string> = {}
  for (const device of devices) {
    for (const camera of device.cameras) lists[`${device.name}/${camera}`] = await listOf(device.url, camera)
  }
  const manifest = (await Promise.all(commands.map(async (args, index) => await relativeManifest(args[args.indexOf('--manifest') + 1] as string, controls[index] as string)))).flat()
  const timeline: string[][] = []
  for (const advance of ADVANCES) {
    await Promise.all(controls.map(async control => await admin(control, '/clock', { advance })))
    timeline.push((await Promise.all(controls.map(async control => await devicesOf(control)))).flat().map(device => `${device.name} ${device.state}`))
  }
  for (const run of runs) run.child.kill('SIGTERM')
  t.strictSame(await Promise.all(runs.map(async run => await run.exit)), runs.map(() => 0), 'every process exits 0 on SIGTERM')
  return { devices: devices.map(({ name, url, cameras }) => ({ name, url, cameras })), lists, manifest, timeline }
}

// The control URL, once the last line says every device of the process listens.
async function ready (run: CliRun): Promise<string> {
  await new Promise<void>((resolve, reject) => {
    const check = () => { if (/ devices ready\n/.test(run.stdout())) resolve() }
    run.child.stdout.on('data', check)
    run.exit.then(code => reject(new Error(`exited ${String(code)}: ${run.stderr()}`)), reject)
  })
  return /fleet control on (\S+)/.exec(run.stdout())?.[1] as string
}

async function admin (control: string, path: string, body?: unknown): Promise<unknown> {
  const response = await fetch(`${control}/__admin${path}`, body === undefined
    ? { headers: ADMIN }
    : { method: 'POST', headers: { ...ADMIN, 'content-type': 'application/json' }, body: JSON.stringify(body) })
  if (response.status !== 200) throw new Error(`${path}: ${response.status} ${await response.text()}`)
  return ((await response.json()) as { content: unknown }).content
}

async function devicesOf (control: string): Promise<Listed[]> {
  return ((await admin(control, '/devices')) as { devices: Listed[] }).devices
}

async function listOf (url: string, camera: string): Promise<string> {
  try {
    return await (await fetch(`${url}/nvr/v1/cameras/${camera}/counting_lines`, { headers: { authorization: 'Bearer any' } })).text()
  } catch (error) {
    return (error as { cause?: { code?: string } }).cause?.code ?? String(error)
  }
}

// A manifest's timelines hold times on its process's clock, which started when the process did: made relative to
// the clock before it moves.
async function relativeManifest (file: string, control: string): Promise<Manifest['devices']> {
  const { now } = await admin(control, '/clock') as { now: string }
  const start = Date.parse(now)
  const { devices } = JSON.parse(await readFile(file, 'utf8')) as Manifest
  return devices.map(device => device.health === undefined
    ? device
    : { ...device, health: { state: device.health.state, next: device.health.next.map(({ at, state }) => ({ at: String(Date.parse(at) - start), state })) } })
}

/** A port P from 20000 to 29000 whose range P+from … P+to is free on 127.0.0.1 now: below the ephemeral ports. */
async function freePortRange (from: number, to: number): Promise<number> {
  for (let attempt = 0; attempt < 50; attempt++) {
    const port = 20000 + Math.floor(Math.random() * 9000)
    const taken = await Promise.all(Array.from({ length: to - from + 1 }, async (_, offset) => await isTaken(port + from + offset)))
    if (!taken.includes(true)) return port
  }
  throw new Error('no free range of ports from 20000 to 29000 in 50 tries')
}

async function isTaken (port: number): Promise<boolean> {
  const server = createServer()
  // events.once rejects on 'error', so a taken port is read from the listen's own outcome.
  const listened = await new Promise<boolean>(resolve => {
    server.once('error', () => resolve(false))
    server.listen(port, '127.0.0.1', () => resolve(true))
  })
  if (!listened) return true
  server.close()
  await once(server, 'close')
  return false
}
