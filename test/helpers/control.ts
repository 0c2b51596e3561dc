import type { Test } from 'tap'
import type { FastifyBaseLogger } from 'fastify'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import type { DeviceCoreOptions, DeviceRunSettings } from '../../src/device/device-core.js'
import { Device } from '../../src/device/device.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import type { FixtureData } from '../../src/contract/schemas.js'
import { SAMPLE_DATA, TOKEN } from './app.js'
import type { Clock, ClockTimer } from '../../src/util/clock.js'
import { RealClock } from '../../src/util/real-clock.js'

export const ADMIN_TOKEN = 'admin-secret'
export const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }

interface Wait {
  ms: number
  resume: () => void
}

/** A clock whose waits a test lets go one by one: a delayed request waits until the test resumes it. */
export function manualClock (): Clock & { next: () => Promise<Wait> } {
  const waits: Wait[] = []
  const watchers: Array<(wait: Wait) => void> = []
  return {
    manual: true,
    now: () => Date.now(),
    setTimer (resume: () => void, ms: number): ClockTimer {
      const wait = { ms, resume }
      const watcher = watchers.shift()
      if (watcher === undefined) waits.push(wait)
      else watcher(wait)
      return { due: ms }
    },
    clearTimer () {},
    /** The next delay asked for (one already asked, or the next to come). */
    next (): Promise<Wait> {
      const waiting = waits.shift()
      return waiting === undefined ? new Promise(resolve => watchers.push(resolve)) : Promise.resolve(waiting)
    }
  }
}

export interface ControlledOverrides extends Omit<DeviceCoreOptions, 'name' | 'store' | 'tokens' | 'cors' | 'clock' | 'settings'>, DeviceRunSettings {
  /** The device's clock; the machine's when absent. */
  clock?: Clock
  data?: FixtureData
  tokens?: string[]
  adminToken?: string
  corsOrigins?: string[]
  logger?: FastifyBaseLogger
}

/** An app with its device, as startMockNvr wires them, that closes itself when the test ends; `control` is the device. */
export async function buildControlled (t: Test, { data, tokens, adminToken, corsOrigins, logger, clock, proxiedTarget, ...settings }: ControlledOverrides = {}) {
  const store = new DataStore(datasetFromData(data ?? SAMPLE_DATA))
  const policy = new TokenPolicy(tokens ?? [TOKEN], adminToken === undefined ? [] : [adminToken], settings.scopedTokens)
  const control = new Device({ name: 'nvr', store, tokens: policy, cors: new CorsPolicy(corsOrigins ?? []), clock: clock ?? new RealClock(), settings, ...(proxiedTarget === undefined ? {} : { proxiedTarget }) })
  const app = await buildApp({
    device: control,
    maxHeaderSize: 65536,
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(logger === undefined ? {} : { logger })
  })
  t.teardown(() => app.close())
  return { app, control }
}
