import { mkdtemp, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { chromium, type BrowserContext } from 'playwright-core'

/** Debian's Chromium; another build can be named with CHROMIUM_PATH. playwright-core never downloads one. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium'
const ARGS = ['--headless', '--no-sandbox', '--disable-gpu', '--disable-background-networking']
/** Bounds every page action, so a broken page fails the test instead of hanging it. */
const ACTION_TIMEOUT_MS = 15_000

export interface Chromium {
  context: BrowserContext
  close: () => Promise<void>
}

/** Headless Chromium on a fresh profile, deleted again by close(). */
export async function launchChromium (): Promise<Chromium> {
  const userDataDir = await mkdtemp(join(tmpdir(), 'mock-nvr-chromium-'))
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ARGS,
    viewport: { width: 1280, height: 900 }
  })
  context.setDefaultTimeout(ACTION_TIMEOUT_MS)
  return {
    context,
    close: async () => {
      await context.close()
      await rm(userDataDir, { recursive: true, force: true })
    }
  }
}
