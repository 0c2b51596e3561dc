import neostandard from 'neostandard'

// The library runs inside test environments that replace the global timers with a page's (jsdom under Vitest's
// vmThreads pool), whose timers have no unref(): src/ takes Node's own from node:timers, but for code that the
// browser bundle of mock-nvr/msw shares (test/msw/browser-bundle.batched.test.ts says which).
const TIMERS = ['setTimeout', 'clearTimeout', 'setInterval', 'clearInterval', 'setImmediate', 'clearImmediate']

export default [
  ...neostandard({
    ts: true,
    ignores: ['dist', 'coverage', '.tap', 'node_modules', '.cli-under-test']
  }),
  {
    files: ['src/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', ...TIMERS.map(name => ({ name, message: `import { ${name} } from 'node:timers': a test environment may replace the global` }))]
    }
  }
]
