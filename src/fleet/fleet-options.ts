import { Type } from '@sinclair/typebox'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { resolveOptions, type MockNvrOptions } from '../config/options.js'
import { optionsError } from '../config/option-problems.js'
import { OptionsError } from '../errors/errors.js'
import type { ResolvedOptions } from '../config/options-schema.js'
import { MAX_FLEET_DEVICES } from '../config/settings.js'
import type { FleetOption } from '../config/settings.js'
import type { DeviceSettings, FleetDeviceOptions } from '../config/device-settings.js'
import { devicesProblems } from '../config/fleet-problems.js'
import { portRangeProblem, portsFromFleetPort, shardCountProblem } from '../config/combination-problems.js'
import { readShard, shardRange, type ShardText } from '../config/shard.js'
import { schemaProblems, together } from '../config/option-problems.js'
import { deviceName, deviceSeed } from './device-names.js'
import { plansByFraction } from '../health/fractions.js'

/** What each device of a fleet may set for itself, and one device of a fleet: declared once, in config/device-settings.ts. */
export type { DeviceSettings, FleetDeviceOptions }

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
export type FleetSharedOptions = Omit<MockNvrOptions, FleetOption> & {
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
  /**
   * 'K/N': start only the K-th of N contiguous slices of the devices, by index, each as the whole fleet would
   * start it (name, port, data, seed, health); N processes together serve the whole fleet.
   */
  shard?: ShardText
}

/** A device to start: its name, options resolved, and where its data comes from. */
export interface DevicePlan {
  name: string
  options: ResolvedOptions
  /** Devices with the same key share one prepared copy of their data; generated data is each device's own. */
  dataKey: string
}

const checkCount = TypeCompiler.Compile(Type.Object({ count: Type.Integer({ minimum: 1, maximum: MAX_FLEET_DEVICES }) }))

/** The devices a fleet's options ask for, each with its options checked: every problem of the list at once. */
export function planDevices ({ count, devices, ...shared }: FleetOptions): DevicePlan[] {
  if (count !== undefined && devices !== undefined) throw optionsError(together(['count', 'devices'], (a, b) => `${a} cannot be combined with ${b}: give one`))
  if (count === undefined && devices === undefined) throw new OptionsError('a fleet needs count or devices: how many devices, or which')
  const problems = devices === undefined ? schemaProblems(checkCount, { count }) : devicesProblems(devices)
  if (problems.length > 0) throw optionsError(problems)
  const listed: FleetDeviceOptions[] = devices ?? Array.from({ length: count as number }, (_, index) => ({ name: deviceName(index, count as number) }))
  const base = resolveOptions(withoutHooks(shared))
  // The fractions and the shard are the fleet's own options: checked as such (fleet marks the options as a
  // fleet's, whose devices are counted below).
  const { offlineFraction, flappingFraction, shard } = shared
  resolveOptions({ fleet: 'startMockFleet', ...defined({ offlineFraction, flappingFraction, shard }) })
  // A device without a port of its own takes the fleet's port plus its place.
  const countKey = devices === undefined ? 'count' : 'devices'
  const edge = portRangeProblem(base.port, portsFromFleetPort(listed), countKey) ?? shardCountProblem(shard, listed.length, countKey)
  if (edge !== undefined) throw optionsError(edge)
  // Chosen among the whole fleet's devices, and every device planned, so a shard's devices are the fleet's own.
  const byFraction = plansByFraction(listed.filter(device => device.health === undefined).map(device => device.name), base.seed, { offline: shared.offlineFraction, flapping: shared.flappingFraction })
  const resolved = new Map<string, ResolvedOptions>()
  const plans = listed.map((device, index) => planDevice(device, index, shared, base, byFraction, resolved))
  if (shard === undefined) return plans
  const { start, end } = shardRange(readShard(shard), plans.length)
  return plans.slice(start, end)
}

/**
 * A device's plan. Devices whose own settings are the same (all of a --devices fleet, but for the flapping
 * ones' phases) have their options checked and resolved once: they differ only in the port and the seed, whose
 * values are valid by construction (the port range and the seeds' checks came first), so 10,000 devices are
 * not 10,000 runs of every check. Those devices share the resolved arrays and objects (tokens, origins), which
 * nothing changes.
 */
function planDevice ({ name, port: ownPort, ...settings }: FleetDeviceOptions, index: number, shared: FleetSharedOptions, base: ResolvedOptions, byFraction: ReadonlyMap<string, DeviceSettings['health']>, resolved: Map<string, ResolvedOptions>): DevicePlan {
  const port = ownPort ?? (base.port === 0 ? 0 : base.port + index)
  const ownData = settings.fixtures !== undefined || settings.generate !== undefined
  const generate = ownData ? settings.generate : base.generate
  const fixtures = ownData ? settings.fixtures : base.fixtures
  const own = defined({ ...settings, health: settings.health ?? byFraction.get(name) })
  const seed = generate === undefined ? settings.seed ?? base.seed : settings.seed ?? deviceSeed(base.seed, name)
  // The fleet file's and startMockFleet's device settings are JSON values, checked before any plan is made.
  const key = JSON.stringify([own, generate, fixtures])
  const known = resolved.get(key)
  if (known !== undefined) return { name, options: { ...known, port, seed }, dataKey: dataKeyOf(name, generate, fixtures, shared) }
  // A fleet's --watch watches the fixture files its devices serve; a device of generated data has none to watch.
  const watch = generate === undefined ? shared.watch : undefined
  const input: MockNvrOptions = { ...withoutHooks(shared), ...own, port, generate, fixtures, seed, watch }
  let options: ResolvedOptions
  try {
    options = resolveOptions(input)
  } catch (error) {
    // What only the device and the shared options together get wrong (its token is the admin token).
    throw new OptionsError(`device ${name}: ${(error as Error).message}`)
  }
  resolved.set(key, options)
  return { name, options, dataKey: dataKeyOf(name, generate, fixtures, shared) }
}

function dataKeyOf (name: string, generate: unknown, fixtures: string | undefined, shared: FleetSharedOptions): string {
  return generate !== undefined ? `generated:${name}` : fixtures !== undefined ? `fixtures:${fixtures}` : shared.data !== undefined ? 'data' : 'bundled'
}

/** The fleet's control port: the one given, else the fleet's port − 1, or a free one under port 0. */
export function controlPortOf ({ controlPort, port = 0 }: FleetSharedOptions, plans: readonly DevicePlan[]): number {
  const chosen = controlPort ?? (port === 0 ? 0 : port - 1)
  const taken = plans.find(plan => chosen !== 0 && plan.options.port === chosen)
  if (taken !== undefined) throw new OptionsError(`the control port ${chosen} is also the port of device ${taken.name}: the control address needs a port that no device listens on`)
  return chosen
}

function withoutHooks ({ data, logger, controlPort, manifest, onControlListening, offlineFraction, flappingFraction, shard, ...rest }: FleetSharedOptions): MockNvrOptions {
  return rest
}

function defined (values: Record<string, unknown>): Partial<MockNvrOptions> {
  return Object.fromEntries(Object.entries(values).filter(([, value]) => value !== undefined))
}
