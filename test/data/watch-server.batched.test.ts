import { join } from 'node:path'
import t, { type Test } from 'tap'
import { OptionsError } from '../../src/errors/errors.js'
import { startMockNvr } from '../../src/start/start-mock-nvr.js'
import { startMockFleet } from '../../src/fleet/start-mock-fleet.js'
import { AUTH, line } from '../helpers/app.js'
import { captureLogs, saveFile } from '../helpers/log-capture.js'

const json = (data: unknown) => JSON.stringify(data, null, 2)

/** A mock watching a folder with one fixture file, and the names of cam-1's lines as it serves them. */
async function watchedMock (t: Test) {
  const dir = t.testdir({ 'a.json': json({ counting_lines: [line()] }) })
  const logs = captureLogs()
  const nvr = await startMockNvr({ fixtures: dir, watch: true, logger: logs.logger })
  t.teardown(() => nvr.close())
  const names = async () => {
    const response = await nvr.app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH })
    return (response.json().content as Array<{ name: string }>).map(({ name }) => name)
  }
  return { dir, logs, nvr, names }
}

t.test('with watch on, the very next request after a good edit sees it, and a bad edit changes nothing', async t => {
  const { dir, logs, names } = await watchedMock(t)
  t.ok(logs.records.some(record => record.msg === `watching ${dir} for changes`))
  t.strictSame(await names(), ['Door'])

  const refused = logs.next(record => record.level === 50)
  await saveFile(join(dir, 'a.json'), '{"counting_lines": [')
  t.match((await refused).msg, `${join(dir, 'a.json')}: is not valid JSON at line 1, column 21`)
  t.strictSame(await names(), ['Door'], 'the last good data is still served')

  const reloaded = logs.next(record => record.msg.startsWith('fixtures reloaded'))
  await saveFile(join(dir, 'a.json'), json({ counting_lines: [line({ name: 'Front door' }), line({ id: 'line-2' })] }))
  t.equal((await reloaded).msg, 'fixtures reloaded: 1 line added (line-2 of cam-1), 1 line changed (line-1 of cam-1)')
  t.strictSame(await names(), ['Front door', 'Door'])
})

t.test('watch needs fixture files to watch', async t => {
  await t.rejects(startMockNvr({ watch: true, data: {} }), new OptionsError('option watch cannot be combined with option data: only fixture files can be watched'))
  await t.rejects(startMockNvr({ watch: true, generate: { cameras: 1, linesPerCamera: 1 } }), new OptionsError('option watch cannot be combined with option generate: only fixture files can be watched'))
  await t.rejects(startMockNvr({ watch: 'yes' as unknown as boolean }), { name: 'OptionsError', message: 'option watch must be true or false, not "yes"' })
})

t.test('with watch on, an edit is served even over use(), and reset returns to what the files now hold', async t => {
  const { dir, logs, nvr, names } = await watchedMock(t)
  nvr.use({ counting_lines: [line({ name: 'From the test' })] })
  t.strictSame(await names(), ['From the test'])

  const reloaded = logs.next(record => record.msg.startsWith('fixtures reloaded'))
  await saveFile(join(dir, 'a.json'), json({ counting_lines: [line({ name: 'Edited' })] }))
  t.equal((await reloaded).msg, 'fixtures reloaded: 1 line changed (line-1 of cam-1)')
  t.strictSame(await names(), ['Edited'], 'the latest change wins: the edit')

  nvr.use({ counting_lines: [line({ name: 'From the test again' })] })
  nvr.resetData()
  t.strictSame(await names(), ['Edited'], 'resetData returns to the files, not to the start-up data')
  nvr.use({ counting_lines: [line({ name: 'Once more' })] })
  nvr.reset()
  t.strictSame(await names(), ['Edited'], 'so does reset')
})

t.test('a fleet watches its fixtures: a shared file\'s edit reaches every device that serves it, a bad edit keeps each one\'s last good data', async t => {
  const dir = t.testdir({
    shared: { 'a.json': json({ counting_lines: [line()] }) },
    own: { 'b.json': json({ counting_lines: [line({ name: 'Own' })] }) }
  })
  const logs = captureLogs()
  const fleet = await startMockFleet({
    devices: [{ name: 'a' }, { name: 'b' }, { name: 'c', fixtures: join(dir, 'own') }, { name: 'd', generate: { cameras: 1, linesPerCamera: 1 } }],
    fixtures: join(dir, 'shared'),
    watch: true,
    port: 0,
    logger: logs.logger
  })
  t.teardown(() => fleet.close())
  const names = async (device: string) => {
    const response = await fetch(`${fleet.device(device)?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: AUTH })
    return ((await response.json() as { content: Array<{ name: string }> }).content).map(({ name }) => name)
  }
  t.ok(logs.records.some(record => record.msg === `watching ${join(dir, 'shared')} for changes`))
  t.ok(logs.records.some(record => record.msg === `watching ${join(dir, 'own')} for changes`))
  t.notOk(logs.records.some(record => /watching .*generate/.test(record.msg)), 'generated data is not watched')
  fleet.device('b')?.use({ counting_lines: [line({ name: 'From the test' })] })

  const refused = logs.next(record => record.level === 50)
  await saveFile(join(dir, 'shared', 'a.json'), '{"counting_lines": [')
  await refused
  t.strictSame([await names('a'), await names('b'), await names('c')], [['Door'], ['From the test'], ['Own']], 'a bad edit changes no device')

  const reloaded = logs.next(record => record.msg.startsWith('fixtures reloaded'))
  await saveFile(join(dir, 'shared', 'a.json'), json({ counting_lines: [line({ name: 'Edited' })] }))
  t.equal((await reloaded).msg, 'fixtures reloaded: 1 line changed (line-1 of cam-1)')
  t.strictSame([await names('a'), await names('b'), await names('c')], [['Edited'], ['Edited'], ['Own']], 'every device of the shared files serves the edit; the others keep theirs')
  await fleet.reset()
  t.strictSame(await names('a'), ['Edited'], 'a reset returns to what the files now hold')
})
