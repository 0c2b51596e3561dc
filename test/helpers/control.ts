import type { Test } from 'tap'
import type { FastifyBaseLogger } from 'fastify'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { MockControl, type MockControlOptions } from '../../src/control/mock-control.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import type { FixtureData } from '../../src/contract/schemas.js'
import { SAMPLE_DATA, TOKEN } from './app.js'

export const ADMIN_TOKEN = 'admin-secret'
export const ADMIN = { authorization: `Bearer ${ADMIN_TOKEN}` }

interface Wait {
  ms: number
  resume: () => void
}

/** A clock for delays that a test moves by hand: a delayed request waits until the test resumes it. */
export function manualClock () {
  const waits: Wait[] = []
  const watchers: Array<(wait: Wait) => void> = []
  return {
    schedule (resume: () => void, ms: number): void {
      const wait = { ms, resume }
      const watcher = watchers.shift()
      if (watcher === undefined) waits.push(wait)
      else watcher(wait)
    },
    /** The next delay asked for (one already asked, or the next to come). */
    next (): Promise<Wait> {
      const waiting = waits.shift()
      return waiting === undefined ? new Promise(resolve => watchers.push(resolve)) : Promise.resolve(waiting)
    }
  }
}

export interface ControlledOverrides extends Omit<MockControlOptions, 'store'> {
  data?: FixtureData
  tokens?: string[]
  adminToken?: string
  corsOrigins?: string[]
  logger?: FastifyBaseLogger
}

/** An app with its control, as startMockNvr wires them, that closes itself when the test ends. */
export async function buildControlled (t: Test, { data, tokens, adminToken, corsOrigins, logger, ...controlOptions }: ControlledOverrides = {}) {
  const store = new DataStore(datasetFromData(data ?? SAMPLE_DATA))
  const policy = new TokenPolicy(tokens ?? [TOKEN], adminToken === undefined ? [] : [adminToken], controlOptions.scopedTokens)
  const control = new MockControl({ store, access: policy, ...controlOptions })
  const app = await buildApp({
    store,
    tokens: policy,
    cors: new CorsPolicy(corsOrigins ?? []),
    maxHeaderSize: 65536,
    control,
    ...(adminToken === undefined ? {} : { adminToken }),
    ...(logger === undefined ? {} : { logger })
  })
  t.teardown(() => app.close())
  return { app, control }
}
