import { defineConfig } from 'vitest/config'

// Node's own fetch, as in the test runners above. For a browser-like test environment, see docs/testing.md.
// Vitest's default include finds every *.test.ts of the project (src/, test/, …), node_modules aside.
export default defineConfig({
  test: { environment: 'node' }
})
