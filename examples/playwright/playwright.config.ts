import { defineConfig } from '@playwright/test'

// mock-nvr and the page under test, each on a fixed port (override with NVR_PORT and FRONTEND_PORT).
export const NVR_PORT = Number(process.env.NVR_PORT ?? 4010)
export const FRONTEND_PORT = Number(process.env.FRONTEND_PORT ?? 4011)
export const ADMIN_TOKEN = 'admin-secret'
// In your project: `npx mock-nvr`; this repository runs its own CLI from source instead.
const MOCK_NVR = process.env.NVR_COMMAND ?? 'npx mock-nvr'

export default defineConfig({
  testDir: '.',
  testMatch: '*.spec.ts',
  workers: 1,
  reporter: 'list',
  use: {
    baseURL: `http://127.0.0.1:${FRONTEND_PORT}`,
    // Debian's Chromium: Playwright never downloads a browser (PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD=1 on install).
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' }
  },
  webServer: [
    {
      command: `${MOCK_NVR} --port ${NVR_PORT} --host 127.0.0.1 --admin-token ${ADMIN_TOKEN}`,
      url: `http://127.0.0.1:${NVR_PORT}/healthz`,
      reuseExistingServer: false
    },
    {
      // Your frontend's dev server (vite, next dev…); here a static page that calls mock-nvr.
      command: `node serve-page.mjs ${FRONTEND_PORT} ${NVR_PORT}`,
      url: `http://127.0.0.1:${FRONTEND_PORT}/`,
      reuseExistingServer: false
    }
  ]
})
