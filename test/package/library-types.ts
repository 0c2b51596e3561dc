// Read by the type check (tsc --noEmit, in npm test), never run: what a test author's code may say to the library,
// and what the types must refuse before it runs. Each @ts-expect-error line must be an error, or tsc fails.
import { RecordRefusedError, startMockFleet, startMockNvr, type DeviceEvent, type FleetOptions, type HandleClock, type MockNvr, type MockNvrOptions, type StartOptions } from '../../src/index.js'

export async function fleetOptions (): Promise<void> {
  await startMockFleet({ count: 2, seed: 3 })
  await startMockFleet({ devices: [{ name: 'a' }, { name: 'b', tokens: ['b-token'] }], adminToken: 'admin' })
  const given: FleetOptions = Math.random() > 0.5 ? { count: 1 } : { devices: [{ name: 'a' }] }
  await startMockFleet(given)

  // @ts-expect-error: how many devices, or which, must be given
  await startMockFleet({})
  // @ts-expect-error: the shared options alone are no fleet either
  await startMockFleet({ port: 0, seed: 1 })
  // @ts-expect-error: count and devices exclude each other
  await startMockFleet({ count: 2, devices: [{ name: 'a' }] })
  // @ts-expect-error: a device needs a name
  await startMockFleet({ devices: [{ port: 9000 }] })
}

/** startMockNvr's argument by its name: a device's options, and the target to proxy, startMockNvr's own. */
export async function startOptions (): Promise<HandleClock> {
  const options: StartOptions = { rateLimit: 5, clock: 'manual' }
  const device: MockNvrOptions = { rateLimit: 5 }
  // @ts-expect-error: proxy is startMockNvr's own, not an option a fleet's devices share
  const shared: MockNvrOptions = { proxy: { target: 'http://127.0.0.1:9' } }
  // @ts-expect-error: now, the rate limit's own clock of earlier versions, is gone: the device has one clock
  const retired: StartOptions = { now: () => 0 }
  return (await startMockNvr({ ...device, ...options, ...shared, ...retired })).clock
}

/** One line per event, each kind's fields read without a cast. */
export function describe (nvr: Pick<MockNvr, 'events'>): string[] {
  return nvr.events().map((event: DeviceEvent) => {
    if (event.kind === 'health') {
      const state: 'online' | 'offline' | 'unreachable' | 'rebooting' | 'slow' = event.state
      const phase: string | undefined = event.phase
      const port: number | undefined = event.cause === 'port-taken' ? event.port : undefined
      return `${event.time} ${state}${phase === undefined ? '' : ` (${phase})`} by ${event.cause}${port === undefined ? '' : ` on ${port}`}`
    }
    const edit: 'renamed' | 'moved' | 'added' | 'removed' = event.edit
    return `${event.time} line ${event.line} of camera ${event.camera} ${edit}`
  })
}

export function refused (event: DeviceEvent): void {
  // @ts-expect-error: a kind no event has
  if (event.kind === 'network') return
  if (event.kind === 'data') {
    // @ts-expect-error: a data edit has no state
    console.log(event.state)
  } else {
    // @ts-expect-error: a change of health has no line
    console.log(event.line)
    // @ts-expect-error: a state no device has
    if (event.state === 'asleep') return
    // @ts-expect-error: only a port taken names its port
    console.log(event.port.toFixed())
  }
}

/** recordTarget's refusal carries verifyTarget's report, typed as such. */
export function refusedTarget (error: unknown): string | undefined {
  if (error instanceof RecordRefusedError) return `${error.report.target}: ${error.report.violations.length}`
  return undefined
}
