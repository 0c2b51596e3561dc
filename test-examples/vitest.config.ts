import { fileURLToPath } from 'node:url'
import { mergeConfig } from 'vitest/config'
import example from '../examples/vitest-msw/vitest.config.js'

// Runs examples/vitest-msw as a user's project would, with mock-nvr's subpaths taken from src/. With
// BREAK_CONTRACT=1, mock-nvr/msw is a copy whose answers break the contract, so the example must fail.
const source = (path: string) => fileURLToPath(new URL(`../${path}`, import.meta.url))

export default mergeConfig(example, {
  root: source('examples/vitest-msw'),
  resolve: {
    alias: {
      'mock-nvr/msw': source(process.env.BREAK_CONTRACT === '1' ? 'test-examples/broken-msw.ts' : 'src/msw/index.ts'),
      'mock-nvr/types': source('src/types.ts')
    }
  }
})
