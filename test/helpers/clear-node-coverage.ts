// Run by tap before the tests (.taprc "before"): Node writes its own coverage files into .tap/node-coverage
// while NODE_V8_COVERAGE is set, and only the last run's are worth keeping.
import { rmSync } from 'node:fs'

rmSync(new URL('../../.tap/node-coverage', import.meta.url), { recursive: true, force: true })
