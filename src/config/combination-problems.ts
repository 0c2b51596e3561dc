import { isIPv6 } from 'node:net'
import { describeOversize } from '../data/generate-size.js'
import { fieldProblem, together, type OptionsProblem } from './option-problems.js'
import type { ResolvedOptions } from './options-schema.js'
import { scopeConflict } from '../contract/scoped-tokens.js'
import { readShard, shardRange, type ShardText } from './shard.js'
import { deviceName } from './device-name.js'

/** What only the server's options can get wrong: the host, a generated size, and options that go (or never go) together. */
export function combinationProblem (options: ResolvedOptions): OptionsProblem | undefined {
  const { host, generate, tlsCert, tlsKey, tlsSelfSigned, adminToken, tokens, scopedTokens } = options
  // A URL or host:port would only fail later, as a host name that cannot be found.
  if (/[\s/@]/.test(host) || (host.includes(':') && !isIPv6(host))) {
    return fieldProblem('host', '', 'must be a host name or an IP address alone, without scheme, port or path (like 127.0.0.1, 0.0.0.0 or ::)', host)
  }
  const oversize = generate === undefined ? undefined : describeOversize(generate)
  if (oversize !== undefined) return fieldProblem('generate', '', oversize)

  if (tlsSelfSigned && (tlsCert !== undefined || tlsKey !== undefined)) {
    return together(['tlsSelfSigned', tlsCert === undefined ? 'tlsKey' : 'tlsCert'], (self, files) => `${self} cannot be combined with ${files}: choose one`)
  }
  if ((tlsCert === undefined) !== (tlsKey === undefined)) {
    return together(tlsCert === undefined ? ['tlsKey', 'tlsCert'] : ['tlsCert', 'tlsKey'], (given, missing) => `${given} needs ${missing} too: give both or neither`)
  }
  if (adminToken !== undefined && tokens.includes(adminToken)) {
    return together(['adminToken', 'tokens'], (admin, device) => `the same token cannot be both ${admin} and ${device}: the admin token must never open the device API`)
  }
  // The token policies' own check, so the server, its handle and the MSW handlers refuse alike.
  const conflict = scopeConflict(scopedTokens, token => token === adminToken, token => tokens.includes(token))
  if (conflict !== undefined) return fieldProblem('scopedTokens', conflict.path, conflict.message)
  if (generate !== undefined && options.fixtures !== undefined) {
    return together(['generate', 'fixtures'], (a, b) => `${a} cannot be combined with ${b}: generated data is served instead of fixture files`)
  }
  const edge = options.devices === undefined ? undefined : portRangeProblem(options.port, options.devices, 'devices') ?? shardCountProblem(options.shard, options.devices, 'devices')
  if (edge !== undefined) return edge
  if (options.devices !== undefined && options.fleet !== undefined) {
    return together(['devices', 'fleet'], (a, b) => `${a} cannot be combined with ${b}: the fleet file lists the devices`)
  }
  const fleet = options.devices !== undefined || options.fleet !== undefined
  for (const key of ['manifest', 'controlPort', 'offlineFraction', 'flappingFraction', 'shard'] as const) {
    if (!fleet && options[key] !== undefined) return together([key, 'devices'], (a, b) => `${a} applies to a fleet only: give ${b} too`)
  }
  if ((options.offlineFraction ?? 0) + (options.flappingFraction ?? 0) > 1) {
    return together(['offlineFraction', 'flappingFraction'], (a, b) => `${a} and ${b} add up to more than 1: a device is offline or flapping, not both`)
  }
  if (generate !== undefined && options.watch) {
    return together(['watch', 'generate'], (a, b) => `${a} cannot be combined with ${b}: only fixture files can be watched`)
  }
  return undefined
}

/** The highest port a device may have. */
export const LAST_PORT = 65535

/** How many ports from the fleet's port its devices take: a device without a port of its own takes the port plus its place. */
export function portsFromFleetPort (devices: ReadonlyArray<{ port?: number | undefined }>): number {
  return devices.findLastIndex(device => device.port === undefined) + 1
}

/**
 * A fleet whose ports, from `port` one per device, would pass 65535; `countKey` is the option that says how many
 * devices (devices on the CLI, count or devices in the library), so the message names what the user gave. A
 * count that no option gives (the devices a fleet file lists) is worded by `counted`.
 */
export function portRangeProblem (port: number, count: number, countKey: string, counted = (name: string) => `${name} ${count}`): OptionsProblem | undefined {
  const last = port + count - 1
  if (port === 0 || last <= LAST_PORT) return undefined
  return together(['port', countKey], (first, devices) =>
    `${first} ${port} with ${counted(devices)} would put the last device on port ${last}: a fleet's ports must stay within ${LAST_PORT}, so from port ${port} at most ${LAST_PORT + 1 - port} device${port === LAST_PORT ? '' : 's'}`)
}

/**
 * A shard, already checked on its own, of more slices than the fleet has devices, which would leave a slice none;
 * `countKey` names what says how many devices (count or devices in the library, --devices or a fleet file on the CLI).
 */
export function shardCountProblem (shard: ShardText | undefined, devices: number, countKey: string): OptionsProblem | undefined {
  if (shard === undefined) return undefined
  const { index, count } = readShard(shard)
  if (count <= devices) return undefined
  return together(['shard', countKey], (first, second) => `${first} ${index}/${count} needs at least ${count} devices, one per slice, but ${second} gives ${devices}`)
}

/**
 * A control port that one of a --devices fleet's devices would listen on too, the devices taking the ports from
 * `port` one each (a shard's devices only: the others listen elsewhere). Read from options whose own checks may
 * have failed, so that it is reported with every other problem: only values that passed them are compared.
 */
export function controlPortProblem (options: Readonly<Record<string, unknown>>, failed: ReadonlySet<string>): OptionsProblem | undefined {
  const { port, devices, controlPort, shard } = options
  if (['port', 'devices', 'controlPort', 'shard'].some(key => failed.has(key))) return undefined
  if (typeof port !== 'number' || typeof devices !== 'number' || typeof controlPort !== 'number' || port === 0 || controlPort === 0) return undefined
  const slice = typeof shard === 'string' ? readShard(shard) : undefined
  if (slice !== undefined && slice.count > devices) return undefined
  const { start, end } = slice === undefined ? { start: 0, end: devices } : shardRange(slice, devices)
  const index = controlPort - port
  if (index < start || index >= end) return undefined
  const usual = port === 1 ? 'a free port' : `port ${port - 1}`
  return {
    keys: ['controlPort', 'port', 'devices'],
    path: '',
    sentence: ([control, from, count]) =>
      `${control as string} ${controlPort} is the port of device ${deviceName(index, devices)} too (${from as string} ${port} with ${count as string} ${devices} gives ${slice === undefined ? 'the devices' : 'this shard\'s devices'} ports ${port + start} to ${port + end - 1}): give the control address a port outside them, or leave ${control as string} out for ${usual}`
  }
}
