import { fileURLToPath } from 'node:url'
import { mergeConfig } from 'vitest/config'
import example from '../examples/vitest-msw/vitest.config.js'

// Runs examples/vitest-msw as a user's project would, with mock-nvr's subpaths taken from src/. With DRIFT set,
// mock-nvr/msw is handlers that drifted from the contract (drifted-msw.ts), so the example must fail.
const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))

export default mergeConfig(example, {
  root: source('examples/vitest-msw'),
  resolve: {
    alias: {
      'mock-nvr/msw': source(process.env.DRIFT === undefined ? 'src/msw/index.ts' : 'test-examples/drifted-msw.ts'),
      'mock-nvr/types': source('src/types.ts')
    }
  }
})
