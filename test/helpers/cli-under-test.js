// The CLI bundled from src/ as npm run build bundles it, into .cli-under-test/, one folder below the project like
// dist/: tests spawn it with plain node, outside coverage, ready in a third of the time tsx and the runner's tracking
// take to load the sources. `node test/helpers/cli-under-test.js` builds it when a source is newer than it: npm test
// does that beside the type check, and tap's before script again, for a run of some files after an edit.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('../../', import.meta.url))
const BUNDLER = join(ROOT, 'scripts', 'bundle-cli.js')
export const CLI_UNDER_TEST_FILE = join(ROOT, '.cli-under-test', 'cli.js')

function modified (path) {
  try {
    return statSync(path).mtimeMs
  } catch {
    return -1
  }
}

function newestSource () {
  const sources = readdirSync(join(ROOT, 'src'), { recursive: true }).map(name => join(ROOT, 'src', String(name)))
  return Math.max(...[...sources, BUNDLER, join(ROOT, 'package.json')].map(modified))
}

/** Bundles the CLI unless the bundle is newer than every source. */
export function buildCliUnderTest () {
  if (modified(CLI_UNDER_TEST_FILE) > newestSource()) return
  // Through env(1), outside the runner's coverage, which is of src/, not of the build script (untracked.ts says why).
  execFileSync('env', ['NODE_OPTIONS=', process.execPath, BUNDLER, CLI_UNDER_TEST_FILE], { stdio: 'inherit' })
}

if (process.argv[1] === fileURLToPath(import.meta.url)) buildCliUnderTest()
