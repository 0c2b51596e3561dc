import { fileURLToPath } from 'node:url'
import { defineConfig, mergeConfig } from 'vitest/config'
import example from '../../examples/vitest/vitest.config.js'

// The Vitest example as a user runs it, but on this repository's source instead of a built package.
export default mergeConfig(example, defineConfig({
  root: fileURLToPath(new URL('../../examples/vitest', import.meta.url)),
  resolve: { alias: { 'mock-nvr': fileURLToPath(new URL('../../src/index.ts', import.meta.url)) } }
}))
