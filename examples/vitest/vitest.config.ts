import { defineConfig } from 'vitest/config'

// Node's own fetch, as in the test runners above. For a browser-like test environment, see docs/testing.md.
export default defineConfig({
  test: { include: ['*.test.ts'], environment: 'node' }
})
