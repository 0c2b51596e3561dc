import { defineConfig } from 'vitest/config'

// Node's own fetch, as in the test runners above. For a browser-like test environment, see the README.
export default defineConfig({
  test: { include: ['*.test.ts'], environment: 'node' }
})
