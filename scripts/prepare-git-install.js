// npm runs `prepare` after every install in this folder, and when it installs mock-nvr from a git URL, where it
// packs a fresh clone that has no dist/ (dist/ is not in git). Only the second needs a build: an `npm ci` here must
// stay quick. npm (pacote) tells the two apart for us: it sets npm_package_resolved only while it packs a folder.
import { execFileSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'

if (process.env.npm_package_resolved !== undefined) {
  execFileSync(process.execPath, [fileURLToPath(new URL('build-if-stale.js', import.meta.url))], { stdio: 'inherit' })
}
