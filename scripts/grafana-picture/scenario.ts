import { setTimeout as sleep } from 'node:timers/promises'
import { startMockFleet, type FleetDeviceOptions, type MockFleet, type MockNvr } from '../../src/index.js'

/** How long the recorded run lasts. */
export const RUN_SECONDS = 240
const DEVICES = 40
const TOKEN = 'load-test-token'
const TICK_MS = 100
const REQUEST_TIMEOUT_MS = 5000

const deviceName = (number: number) => `nvr-${String(number).padStart(3, '0')}`

/**
 * 40 devices on the bundled fixtures, each answering in 5–60 ms: ten whose data drifts, two that flap, one that
 * reboots every 90 s. The rest of what happens is the timeline's.
 */
function devices (): FleetDeviceOptions[] {
  return Array.from({ length: DEVICES }, (_, index) => {
    const number = index + 1
    const device: FleetDeviceOptions = { name: deviceName(number), latency: { min: 5, max: 60 } }
    if (number > 35) device.drift = 12_000
    else if (number > 30) device.drift = 30_000
    if (number === 25 || number === 26) device.health = { pattern: 'flapping', up: 25_000, down: 10_000, phase: (number - 25) * 12_000 }
    if (number === 27) device.health = { pattern: 'reboot', every: 90_000, down: 4000, starting: 6000, phase: 30_000 }
    return device
  })
}

export async function startScenarioFleet (adminToken: string): Promise<MockFleet> {
  return await startMockFleet({ devices: devices(), port: 0, tokens: [TOKEN], adminToken, allowPrefer: true, seed: 31, logLevel: 'silent' })
}

interface Step {
  at: number
  act: (fleet: MockFleet) => unknown
}

const device = (fleet: MockFleet, number: number) => fleet.device(deviceName(number)) as MockNvr
const each = (numbers: number[], act: (device: MockNvr) => unknown) => async (fleet: MockFleet) => {
  await Promise.all(numbers.map(async number => await act(device(fleet, number))))
}

/** What the load test meets, by seconds into the run; the steady traffic and the devices' own schedules aside. */
const TIMELINE: Step[] = [
  { at: 60, act: each([4], device => device.injectFault({ status: 503 })) },
  { at: 80, act: each([2], device => device.injectFault({ delay: { min: 300, max: 900 } })) },
  { at: 100, act: each([10, 11, 12, 13, 14], async device => await device.setHealth({ state: 'offline' })) },
  { at: 105, act: each([4], device => device.clearFaults()) },
  { at: 120, act: each([6], device => device.injectFault({ drop: true, times: 40 })) },
  { at: 125, act: each([7], device => device.injectFault({ malformed: true, times: 60 })) },
  { at: 140, act: each([2], device => device.clearFaults()) },
  { at: 150, act: each([10, 11, 13, 14], async device => await device.setHealth({ state: 'rebooting', down: 3000, starting: 8000 })) },
  { at: 160, act: each([20], async device => await device.setHealth({ state: 'slow', latency: 400, for: 40_000 })) },
  { at: 210, act: each([30], async device => await device.setHealth({ state: 'unreachable' })) }
]

/** Requests a second the load test sends: a ramp up, a plateau, a step up, a ramp down. */
function rateAt (seconds: number): number {
  if (seconds < 30) return 10 + seconds
  if (seconds < 90) return 40
  if (seconds < 200) return 60
  return 60 - (seconds - 200) / 2
}

/** Runs the timeline with its traffic for RUN_SECONDS, then waits for the requests still out. */
export async function runScenario (fleet: MockFleet, log: (line: string) => void): Promise<void> {
  const start = Date.now()
  const pending = new Set<Promise<void>>()
  const steps = [...TIMELINE]
  let owed = 0
  let ticks = 0
  let last = start
  while (Date.now() - start < RUN_SECONDS * 1000) {
    const seconds = (Date.now() - start) / 1000
    while (steps[0] !== undefined && steps[0].at <= seconds) await (steps.shift() as Step).act(fleet)
    const now = Date.now()
    owed += rateAt(seconds) * (now - last) / 1000
    last = now
    for (; owed >= 1; owed--) {
      const request: Promise<void> = send(fleet, seconds).then(() => { pending.delete(request) })
      pending.add(request)
    }
    if (++ticks % 100 === 0) log(`${Math.round(seconds)} s of ${RUN_SECONDS}`)
    await sleep(TICK_MS)
  }
  await Promise.all(pending)
}

/** Busier devices first: device n gets a share of about 1/n. */
const WEIGHTS = Array.from({ length: DEVICES }, (_, index) => 1 / (index + 1) ** 0.8)
const TOTAL_WEIGHT = WEIGHTS.reduce((sum, weight) => sum + weight, 0)

function pickDevice (): number {
  let left = Math.random() * TOTAL_WEIGHT
  return WEIGHTS.findIndex(weight => (left -= weight) < 0) + 1 || DEVICES
}

/** One request of the load test: mostly lists and reads of lines, some health probes, a few mistakes. */
async function send (fleet: MockFleet, seconds: number): Promise<void> {
  const number = pickDevice()
  const { url } = device(fleet, number)
  const { counting_lines: lines = [] } = device(fleet, number).data()
  const line = lines[Math.floor(Math.random() * lines.length)] as { id: string, camera_id: string }
  const headers: Record<string, string> = { authorization: `Bearer ${Math.random() < 0.02 ? 'expired-token' : TOKEN}` }
  // A client test of its own, between 170 s and 195 s, asks one device for slow answers.
  if (number === 15 && seconds > 170 && seconds < 195) headers.prefer = 'delay=250'
  const roll = Math.random()
  const path = roll < 0.1
    ? '/healthz'
    : roll < 0.13
      ? '/nvr/v1/cameras/cam-decommissioned/counting_lines'
      : roll < 0.4 ? `/nvr/v1/cameras/${line.camera_id}/counting_lines/${line.id}` : `/nvr/v1/cameras/${line.camera_id}/counting_lines`
  // A refused, dropped, cut or timed-out request is part of the run: the mock's metrics count what it answered.
  await fetch(`${url}${path}`, { headers, signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS) })
    .then(async answer => await answer.arrayBuffer())
    .then(() => {}, () => {})
}
