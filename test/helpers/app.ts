import type { Test } from 'tap'
import { buildApp } from '../../src/app/build-app.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import type { Device } from '../../src/device/device.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import type { CountingLine, FixtureData } from '../../src/contract/schemas.js'

export const TOKEN = 'test-token'
export const AUTH = { authorization: `Bearer ${TOKEN}` }

/** A valid counting line; override any field. */
export function line (overrides: Partial<CountingLine> = {}): CountingLine {
  return {
    id: 'line-1',
    camera_id: 'cam-1',
    name: 'Door',
    counting_line: 'LINESTRING(192 540, 1728 540)',
    anchor: 'POINT(960 420)',
    coalesce_entries: true,
    class: 'person',
    max_age: 30,
    created: '2024-05-01T08:30:00.000Z',
    updated: '2024-05-02T09:45:30.125Z',
    ...overrides
  }
}

/** Small data covering the interesting cases: two lines, a line of another camera, an empty camera. */
export const SAMPLE_DATA: FixtureData = {
  cameras: [{ id: 'cam-1' }, { id: 'cam-empty' }],
  counting_lines: [
    line(),
    line({ id: 'line-2', name: 'Gate', class: 'car', coalesce_entries: false, max_age: 90 }),
    line({ id: 'line-3', camera_id: 'cam-2', name: 'Dock', class: 'truck' })
  ]
}

export interface BuildOverrides {
  data?: FixtureData
  tokens?: string[]
  corsOrigins?: string[]
  maxHeaderSize?: number
  /** The store to serve from, e.g. to replace its data during the test; built from data when absent. */
  store?: DataStore
  /** Turns the admin API on with this token. */
  adminToken?: string
  /** The device served, so a test can reset what an admin call changed; made from the other overrides when absent. */
  device?: Device
}

/** An app on in-memory data that closes itself when the test ends. */
export async function build (t: Test, overrides: BuildOverrides = {}) {
  const store = overrides.store ?? new DataStore(datasetFromData(overrides.data ?? SAMPLE_DATA))
  const served = overrides.device === undefined
    ? { store, tokens: new TokenPolicy(overrides.tokens ?? [TOKEN]), cors: new CorsPolicy(overrides.corsOrigins ?? []) }
    : { device: overrides.device }
  const app = await buildApp({
    ...served,
    ...(overrides.adminToken === undefined ? {} : { adminToken: overrides.adminToken }),
    maxHeaderSize: overrides.maxHeaderSize ?? 65536
  })
  t.teardown(() => app.close())
  return app
}
