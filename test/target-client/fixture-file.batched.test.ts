import { readdir, readFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { writeFileAtomically } from '../../src/target-client/fixture-file.js'

// checkWritable refuses these before any work; the write itself refuses them again when they appear since.
t.test('a write that fails names the file and leaves no temporary file behind', async t => {
  const folder = t.testdir({ 'kept.json': 'old\n', 'plain-file': '' })
  const refused = (file: string, message: string, options = {}) => t.rejects(writeFileAtomically(file, 'new\n', options), { name: 'FixtureWriteError', message })
  await refused(join(folder, 'kept.json'), `${join(folder, 'kept.json')} exists already: pass --force to replace it`)
  await refused(join(folder, 'none', 'out.json'), `${join(folder, 'none', 'out.json')} cannot be written: its folder does not exist`, { replace: true })
  await refused(join(folder, 'plain-file', 'out.json'), `${join(folder, 'plain-file', 'out.json')} cannot be written (ENOTDIR)`)
  t.equal(await readFile(join(folder, 'kept.json'), 'utf8'), 'old\n', 'the existing file is kept')
  t.strictSame((await readdir(folder)).sort(), ['kept.json', 'plain-file'])
})
