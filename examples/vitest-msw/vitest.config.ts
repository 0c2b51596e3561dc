import { defineConfig } from 'vitest/config'

// Node by default; a file that needs a DOM says `// @vitest-environment jsdom` on its first line.
export default defineConfig({
  test: { include: ['*.test.ts'], environment: 'node' }
})
