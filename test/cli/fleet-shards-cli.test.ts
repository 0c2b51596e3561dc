import { createServer, type Server } from 'node:net'
import { once } from 'node:events'
import { readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { runCli, type CliRun } from '../helpers/cli-process.js'
import { within } from '../helpers/bounded.js'

// Three shards as three processes, against the one process that serves the whole fleet, on the same ports.
const DEVICES = 10
const ADMIN = { authorization: 'Bearer shard-admin' }
const FLEET = ['--devices', String(DEVICES), '--generate', '2x3', '--seed', '7', '--offline-fraction', '0.2', '--flapping-fraction', '0.4', '--clock', 'manual', '--admin-token', 'shard-admin', '--log-level', 'silent']
// Clock moves that cross the flapping devices' 5 s up, 5 s down at several phases.
const ADVANCES = [1200, 1300, 2600, 900, 4100, 3000]
// Ranges of ports tried before the test gives up: each is tried again only when another program took one of its ports.
const ATTEMPTS = 5

interface Listed { name: string, url: string, cameras: string[], state: string }
interface Manifest { devices: Array<{ name: string, url: string, cameras: string[], health?: { state: string, next: Array<{ at: string, state: string }> } }> }

interface Observed {
  devices: Array<Omit<Listed, 'state'>>
  /** How many devices each process listed. */
  sizes: number[]
  /** Each device's list of each camera: the bytes, or why there were none (an offline device refuses). */
  lists: Record<string, string>
  /** The manifests joined, each timeline's times made relative to its own process's clock. */
  manifest: Manifest['devices']
  /** The state of every device after each clock move. */
  timeline: string[][]
  /** Each process's exit code on SIGTERM. */
  exits: Array<number | null>
}

/**
 * The whole fleet on ports P … P+9 (its control port P−1), then its three shards on the same ports (their control
 * ports P+10 … P+12). The test holds every one of these ports, listening on it, from the moment it finds them free;
 * it lets a port go only to start the process that listens on it, and takes the whole fleet's ports back as soon as
 * that process has exited, before the shards start. What remains is the moment between this test closing a port and
 * its process listening on it, and that is safe: P is from 20000 to 29000, below the ports the kernel hands out on
 * its own (32768 and up on Linux, 49152 and up on macOS), so no outgoing connection and no listener on port 0 is ever
 * given one; only a program asking for that very port by number could take it then, and the process of this test
 * would then exit saying the port is already in use, never serve on another's port: the test then tries another
 * range, and fails only after five ranges were each taken so.
 */
async function observeOnHeldPorts (t: Test): Promise<{ port: number, whole: Observed, shards: Observed }> {
  const dir = t.testdir({})
  for (let attempt = 1; attempt <= ATTEMPTS; attempt++) {
    const held = new HeldPorts()
    try {
      const port = await held.takeRange(-1, DEVICES + 3)
      const whole = await observe(held, ports(port - 1, DEVICES + 1), [[...FLEET, '--port', String(port), '--manifest', join(dir, 'whole.json')]], t)
      if (!await held.hold(ports(port, DEVICES))) throw new PortTaken('a port of the whole fleet was taken once its process had exited')
      const shards = await observe(held, ports(port, DEVICES + 3), [1, 2, 3].map(index => [
        ...FLEET, '--port', String(port), '--shard', `${index}/3`, '--control-port', String(port + DEVICES - 1 + index), '--manifest', join(dir, `shard-${index}.json`)
      ]), t)
      return { port, whole, shards }
    } catch (error) {
      if (!(error instanceof PortTaken)) throw error
      t.comment(`attempt ${attempt}, another program took a port meanwhile (${error.message}): trying another range`)
    } finally {
      await held.releaseAll()
    }
  }
  throw new Error(`another program took a port of each of ${ATTEMPTS} ranges`)
}

/** `count` ports from `first`. */
function ports (first: number, count: number): number[] {
  return Array.from({ length: count }, (_, offset) => first + offset)
}

/** A port this test let go, for a process of its own, was taken by another program meanwhile. */
class PortTaken extends Error {}

/** Ports the test holds by listening on them on 127.0.0.1, where the fleets listen, so no other program can take them. */
class HeldPorts {
  readonly #servers = new Map<number, Server>()

  /** Holds a port P from 20000 to 29000 and the ports P+from … P+to around it, all free when tried. */
  async takeRange (from: number, to: number): Promise<number> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const port = 20000 + Math.floor(Math.random() * 9000)
      if (await this.hold(ports(port + from, to - from + 1))) return port
    }
    throw new Error('no free range of ports from 20000 to 29000 in 50 tries')
  }

  /** Holds every port, or none of them when one is taken. */
  async hold (wanted: number[]): Promise<boolean> {
    const servers = await Promise.all(wanted.map(listenOn))
    if (servers.every(server => server !== undefined)) {
      for (const [index, server] of servers.entries()) this.#servers.set(wanted[index] as number, server)
      return true
    }
    await Promise.all(servers.map(async server => await closeServer(server)))
    return false
  }

  /** Lets the ports go: each is closed once this resolves, for a process of the test to listen on it. */
  async release (given: number[]): Promise<void> {
    await Promise.all(given.map(async port => {
      const server = this.#servers.get(port)
      this.#servers.delete(port)
      await closeServer(server)
    }))
  }

  async releaseAll (): Promise<void> {
    await this.release([...this.#servers.keys()])
  }
}

// A server listening on the port, or undefined when the port is taken (events.once would reject on 'error').
async function listenOn (port: number): Promise<Server | undefined> {
  const server = createServer()
  return await new Promise(resolve => {
    server.once('error', () => resolve(undefined))
    server.listen(port, '127.0.0.1', () => resolve(server))
  })
}

async function closeServer (server: Server | undefined): Promise<void> {
  if (server === undefined) return
  server.close()
  await once(server, 'close')
}

/**
 * Lets `own` go and starts one process per argument list at once, reads what they serve together, and stops them
 * all; when one cannot listen, it stops the others and throws PortTaken.
 */
async function observe (held: HeldPorts, own: number[], commands: string[][], t: Test): Promise<Observed> {
  await held.release(own)
  const runs = commands.map(args => runCli(args))
  t.teardown(() => { for (const run of runs) run.child.kill('SIGKILL') })
  let controls: string[]
  try {
    controls = await Promise.all(runs.map(ready))
  } catch (error) {
    for (const run of runs) run.child.kill('SIGKILL')
    await Promise.all(runs.map(async run => await within('a process of a failed start to exit', run.exit)))
    throw error
  }
  const listed = await Promise.all(controls.map(async control => await devicesOf(control)))
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
  const exits = await Promise.all(runs.map(async run => await within('a fleet process to exit on SIGTERM', run.exit)))
  return { devices: devices.map(({ name, url, cameras }) => ({ name, url, cameras })), sizes: listed.map(list => list.length), lists, manifest, timeline, exits }
}

// The control URL, once the last line says every device of the process listens; PortTaken when a port it was given
// is another program's.
async function ready (run: CliRun): Promise<string> {
  await within('a fleet process\'s ready line', new Promise<void>((resolve, reject) => {
    const check = () => { if (/ devices ready\n/.test(run.stdout())) resolve() }
    run.child.stdout.on('data', check)
    run.exit.then(code => {
      const said = run.stderr().trim()
      reject(/is already in use/.test(said) ? new PortTaken(said) : new Error(`exited ${String(code)}: ${said}`))
    }, reject)
  }))
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

t.test('shards 1/3, 2/3 and 3/3 together serve the fleet one process serves: names, ports, data, manifests and timelines', async t => {
  const { port, whole, shards } = await observeOnHeldPorts(t)
  t.equal(whole.devices.length, DEVICES)
  t.strictSame(whole.devices.map(device => new URL(device.url).port), Array.from({ length: DEVICES }, (_, index) => String(port + index)))
  t.strictSame(shards.sizes, [4, 3, 3], 'contiguous slices of 4, 3 and 3 devices')
  t.strictSame([...whole.exits, ...shards.exits], [0, 0, 0, 0], 'every process exits 0 on SIGTERM')
  t.strictSame(shards.devices, whole.devices, 'the same names, ports and cameras')
  t.strictSame(shards.lists, whole.lists, 'the same bytes of every list')
  t.ok(Object.values(whole.lists).some(list => list.startsWith('{')) && Object.values(whole.lists).includes('ECONNREFUSED'), 'some devices serve, some are offline')
  t.strictSame(shards.manifest, whole.manifest, 'the manifests joined are the whole fleet\'s')
  t.strictSame(shards.timeline, whole.timeline, 'the same health at every step of the clock')
  t.ok(new Set(whole.timeline.map(states => states.join())).size > 2, 'the health changes as the clock moves')
})
