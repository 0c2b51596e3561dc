import { test as base } from '@playwright/test'
import { ADMIN_TOKEN, NVR_PORT } from './playwright.config.js'

/** A fault as mock-nvr's admin API takes it: { status: 503 }, { delay: 2000, route: 'list' }… */
export type FaultSpec = Record<string, unknown>

/** `nvrFault(spec)` injects a fault through the admin API; every fault is cleared when the test ends. */
export const test = base.extend<{ nvrFault: (spec: FaultSpec) => Promise<void> }>({
  nvrFault: async ({ request }, use) => {
    const admin = `http://127.0.0.1:${NVR_PORT}/__admin`
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}` }
    await use(async spec => {
      const response = await request.post(`${admin}/faults`, { headers, data: spec })
      if (response.status() !== 201) throw new Error(`mock-nvr refused the fault: ${await response.text()}`)
    })
    await request.delete(`${admin}/faults`, { headers })
  }
})

export { expect } from '@playwright/test'
