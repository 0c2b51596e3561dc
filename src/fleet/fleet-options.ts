import type { GenerateSize } from '../data/generate-size.js'
import { OptionsError, resolveOptions, type MockNvrOptions } from '../config/options.js'
import { FLEET_OPTIONS, type ResolvedOptions } from '../config/options-schema.js'
import type { Delay } from '../util/delay.js'
import { deviceName, deviceSeed } from './device-names.js'
import type { HealthOption } from '../health/health-spec.js'
import { plansByFraction } from '../health/fractions.js'

/** What each device of a fleet may set for itself; a fleet file's top level sets them for every device. */
export interface DeviceSettings {
  /** A fixture file or folder; devices with the same one share its data (prepared once). */
  fixtures?: string
  /** Generated data; each device's own, from `seed`, or else from a seed derived from the fleet's seed and its name. */
  generate?: GenerateSize
  seed?: number
  tokens?: string[]
  /** Tokens that see only some cameras, as startMockNvr's scopedTokens option. */
  scopedTokens?: Array<{ token: string, cameras: string[] }>
  latency?: Delay
  /** Requests per second per token, as startMockNvr's rateLimit option. */
  rateLimit?: number
  /** Its health over time: a state from the start, steps or a pattern (docs/device-health.md). */
  health?: HealthOption
  /** Edit its data every this many milliseconds. */
  drift?: number
}

/** One device of a fleet. */
export interface FleetDeviceOptions extends DeviceSettings {
  /** Letters, digits, '.', '_' and '-': it is a path segment of the admin API. */
  name: string
  /** Its port; by default the fleet's port plus its place, or a free one under port 0. */
  port?: number
}

/** What startMockFleet takes: the options every device shares (as startMockNvr's), and count or devices, not both. */
export type FleetOptions = FleetSharedOptions & FleetDevices

/** Which devices a fleet has: how many, or which; exactly one of the two. */
export type FleetDevices = {
  /** This many devices, nvr-001 …, all with the shared options. */
  count: number
  devices?: never
} | {
  /** These devices, each with its own settings. */
  devices: FleetDeviceOptions[]
  count?: never
}

/** The options of startMockFleet besides count and devices: every device's (as startMockNvr's), and the fleet's. */
export type FleetSharedOptions = Omit<MockNvrOptions, typeof FLEET_OPTIONS[number] | 'watch'> & {
  /** The port of the admin API and its dashboard: port − 1 by default, a free one under port 0. */
  controlPort?: number
  /** A JSON file to write the devices' names, URLs and cameras to, once every device listens. */
  manifest?: string
  /** Told the control URL as soon as it listens, before any device does. */
  onControlListening?: (url: string) => void
  /** This share of the devices without a health of their own, chosen by the seed, is offline from the start. */
  offlineFraction?: number
  /** This share of them, chosen by the seed, flaps. */
  flappingFraction?: number
}

/** A device to start: its name, options resolved, and where its data comes from. */
export interface DevicePlan {
  name: string
  options: ResolvedOptions
  /** Devices with the same key share one prepared copy of their data; generated data is each device's own. */
  dataKey: string
}

/** The devices a fleet's options ask for, each with its options checked (a problem names the device). */
export function planDevices ({ count, devices, ...shared }: FleetOptions): DevicePlan[] {
  const listed: FleetDeviceOptions[] | undefined = devices ?? (count === undefined ? undefined : Array.from({ length: count }, (_, index) => ({ name: deviceName(index) })))
  if (listed === undefined || listed.length === 0) throw new OptionsError('a fleet needs count or devices: how many devices, or which')
  if (count !== undefined && devices !== undefined) throw new OptionsError('option count cannot be combined with option devices: give one')
  const base = resolveOptions(withoutHooks(shared))
  // The fractions are the fleet's own options: checked as such (devices marks the options as a fleet's).
  const { offlineFraction, flappingFraction } = shared
  resolveOptions({ devices: 1, ...(offlineFraction === undefined ? {} : { offlineFraction }), ...(flappingFraction === undefined ? {} : { flappingFraction }) })
  const byFraction = plansByFraction(listed.filter(device => device.health === undefined).map(device => device.name), base.seed, { offline: shared.offlineFraction, flapping: shared.flappingFraction })
  const names = new Set<string>()
  return listed.map((device, index) => {
    if (names.has(device.name)) throw new OptionsError(`device ${device.name} is named twice: each device needs a name of its own`)
    names.add(device.name)
    const port = device.port ?? (base.port === 0 ? 0 : base.port + index)
    if (port > 65535) throw new OptionsError(`device ${device.name} would listen on port ${port}: the fleet's port plus ${listed.length} devices must stay within 65535`)
    const ownData = device.fixtures !== undefined || device.generate !== undefined
    const generate = ownData ? device.generate : base.generate
    const fixtures = ownData ? device.fixtures : base.fixtures
    const input: MockNvrOptions = {
      ...withoutHooks(shared),
      port,
      ...defined({ tokens: device.tokens, latency: device.latency, scopedTokens: device.scopedTokens, rateLimit: device.rateLimit, health: device.health ?? byFraction.get(device.name), drift: device.drift }),
      generate,
      fixtures,
      seed: generate === undefined ? device.seed ?? base.seed : device.seed ?? deviceSeed(base.seed, device.name)
    }
    let options: ResolvedOptions
    try {
      options = resolveOptions(input)
    } catch (error) {
      throw new OptionsError(`device ${device.name}: ${(error as Error).message}`)
    }
    const dataKey = generate !== undefined ? `generated:${device.name}` : fixtures !== undefined ? `fixtures:${fixtures}` : shared.data !== undefined ? 'data' : 'bundled'
    return { name: device.name, options, dataKey }
  })
}

/** The fleet's control port: the one given, else the fleet's port − 1, or a free one under port 0. */
export function controlPortOf ({ controlPort, port = 0 }: FleetSharedOptions, plans: readonly DevicePlan[]): number {
  const chosen = controlPort ?? (port === 0 ? 0 : port - 1)
  const taken = plans.find(plan => chosen !== 0 && plan.options.port === chosen)
  if (taken !== undefined) throw new OptionsError(`the control port ${chosen} is the port of device ${taken.name} too: give --control-port another`)
  return chosen
}

function withoutHooks ({ data, logger, controlPort, manifest, onControlListening, offlineFraction, flappingFraction, ...rest }: FleetSharedOptions): MockNvrOptions {
  return rest
}

function defined (values: Record<string, unknown>): Partial<MockNvrOptions> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
}
