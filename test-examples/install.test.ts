import { spawn } from 'node:child_process'
import { once } from 'node:events'
import { existsSync, readFileSync } from 'node:fs'
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import { untracked } from '../test/helpers/untracked.js'

// The README's install from a tarball, as a user runs it: pack this project, then install the file in an empty
// project. npm reads the dependencies from its cache first (only the registry answers on CI machines).
const root = fileURLToPath(new URL('../', import.meta.url))
const readme = readFileSync(join(root, 'README.md'), 'utf8')
const { version } = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { version: string }
const npmCli = process.env.npm_execpath ?? 'npm'

async function run (command: string, args: string[], cwd: string): Promise<{ code: number | null, output: string }> {
  const child = spawn(...untracked(command, args), { cwd, env: { ...process.env, npm_config_prefer_offline: 'true', npm_config_audit: 'false', npm_config_fund: 'false', FORCE_COLOR: '0' } })
  let output = ''
  child.stdout.setEncoding('utf8').on('data', chunk => { output += chunk })
  child.stderr.setEncoding('utf8').on('data', chunk => { output += chunk })
  const [code] = await once(child, 'exit') as [number | null]
  return { code, output }
}
const npm = (args: string[], cwd: string) => npmCli.endsWith('.js') ? run(process.execPath, [npmCli, ...args], cwd) : run(npmCli, args, cwd)

t.test('the README\'s tarball install works in an empty project', async t => {
  const section = /<!-- section: install -->([\s\S]*?)<!-- \/section: install -->/.exec(readme)?.[1] ?? ''
  const commands = section.split('\n').filter(line => line.startsWith('npm '))
  const tarballCommand = commands.find(command => command.endsWith('.tgz'))
  t.ok(commands.includes('npm pack'), 'the README packs with npm pack', { commands })
  t.equal(tarballCommand, `npm i -D /path/to/mock-nvr/mock-nvr-${version}.tgz`, 'and installs the file npm pack writes')
  t.match(section, /npm i -D git\+https:\/\/\S+\/mock-nvr\.git/, 'the git install is shown too')

  const work = await mkdtemp(join(tmpdir(), 'mock-nvr-install-'))
  t.teardown(() => rm(work, { recursive: true, force: true }))
  const packed = await npm(['pack', '--pack-destination', work], root)
  t.equal(packed.code, 0, 'npm pack exits 0', { output: packed.output })
  const tarball = join(work, `mock-nvr-${version}.tgz`)
  t.ok(existsSync(tarball), 'npm pack wrote the file the README names')

  const project = join(work, 'project')
  await mkdir(project)
  await writeFile(join(project, 'package.json'), JSON.stringify({ name: 'app', version: '1.0.0', private: true, type: 'module' }))
  const installed = await npm((tarballCommand as string).replace(`/path/to/mock-nvr/mock-nvr-${version}.tgz`, tarball).split(' ').slice(1), project)
  t.equal(installed.code, 0, 'the install exits 0', { output: installed.output })

  const cli = await run(join(project, 'node_modules/.bin/mock-nvr'), ['--version'], project)
  t.strictSame(cli, { code: 0, output: `${version}\n` }, 'npx mock-nvr runs')
  await writeFile(join(project, 'start.mjs'), "import { startMockNvr } from 'mock-nvr'\nconst nvr = await startMockNvr({ data: {} })\nconsole.log((await fetch(nvr.url + '/healthz')).status)\nawait nvr.close()\n")
  t.strictSame(await run(process.execPath, ['start.mjs'], project), { code: 0, output: '200\n' }, 'the library starts a mock')

  // The README's links and --help's pointers resolve inside node_modules.
  const installedRoot = join(project, 'node_modules/mock-nvr')
  const links = [...readme.matchAll(/\]\(((?:docs\/)[^)#]+)(?:#[^)]*)?\)/g)].map(([, path]) => path as string)
  t.ok(links.length > 10, 'the README links pages of docs/')
  for (const path of new Set(links)) t.ok(existsSync(join(installedRoot, path)), `${path} is in the package`)
  t.ok(existsSync(join(installedRoot, 'docs/target-link.md')), '--help\'s docs/target-link.md is in the package')
})
