// npm start runs this first: it builds only when dist/ is missing or older than what it is built from,
// so a start with a current build takes no time, and a fresh clone or an edited source still builds.
import { execFileSync } from 'node:child_process'
import { readdirSync, statSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const SOURCES = ['src', 'package.json', 'tsconfig.json', 'tsconfig.build.json', 'scripts/bundle-cli.js']
const BUILT = ['dist/cli.js', 'dist/index.js']

/** The newest modification time of a file, or of the files under a folder; 0 when it does not exist. */
function newest (path) {
  let stats
  try {
    stats = statSync(path)
  } catch {
    return 0
  }
  if (!stats.isDirectory()) return stats.mtimeMs
  return Math.max(0, ...readdirSync(path).map(name => newest(join(path, name))))
}

const built = Math.min(...BUILT.map(file => newest(join(ROOT, file)) || -Infinity))
const source = Math.max(...SOURCES.map(path => newest(join(ROOT, path))))
if (built < source) {
  process.stderr.write('mock-nvr: building dist/ from src/ (npm run build)\n')
  execFileSync(process.platform === 'win32' ? 'npm.cmd' : 'npm', ['run', 'build'], { cwd: ROOT, stdio: 'inherit', shell: process.platform === 'win32' })
}
