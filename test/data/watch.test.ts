import { once } from 'node:events'
import { mkdir, rename, rm, symlink, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t, { type Test } from 'tap'
import { DataStore } from '../../src/data/data-store.js'
import type { DatasetDiff } from '../../src/data/dataset-diff.js'
import { loadFixtures } from '../../src/data/fixtures.js'
import { FixtureWatcher } from '../../src/data/watch.js'
import { line } from '../helpers/app.js'
import { captureLogs, saveFile } from '../helpers/log-capture.js'
import { FixtureError } from '../../src/errors/errors.js'

const json = (data: unknown) => JSON.stringify(data, null, 2)

/** A watcher on a test folder (or one file in it), closed when the test ends. */
async function watchFixtures (t: Test, files: Parameters<Test['testdir']>[0], file?: string, debounceMs = 20) {
  const dir = t.testdir(files)
  const path = file === undefined ? dir : join(dir, file)
  const store = new DataStore(await loadFixtures(path))
  const logs = captureLogs()
  const watcher = new FixtureWatcher({ path, stores: [store], log: logs.logger, debounceMs })
  t.teardown(() => watcher.close())
  return { dir, store, logs, watcher }
}

const nextReload = (watcher: FixtureWatcher) => once(watcher, 'reload') as Promise<[DatasetDiff]>
/** The first reload that changed something: steps of a multi-step update may each trigger an empty one. */
async function changingReload (watcher: FixtureWatcher): Promise<DatasetDiff> {
  for (;;) {
    const [diff] = await nextReload(watcher)
    if (Object.values(diff).some(list => list.length > 0)) return diff
  }
}
const nextReject = (watcher: FixtureWatcher) => once(watcher, 'reject') as Promise<[Error]>

t.test('a bad edit is logged as at start-up and the last good data stays; the fix is then served', async t => {
  const { dir, store, logs, watcher } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })
  const file = join(dir, 'a.json')

  const rejected = nextReject(watcher)
  const logged = logs.next(record => record.level === 50)
  await saveFile(file, json({ counting_lines: [line({ created: '2024-02-30T10:00:00.000Z' })] }))
  const [error] = await rejected
  const atStartUp = await loadFixtures(dir).catch((startError: unknown) => startError)
  t.type(atStartUp, FixtureError)
  t.equal(error.message, (atStartUp as FixtureError).message, 'the same message as a start with this file')
  t.match(error.message, `${file}: /counting_lines/0/created: "2024-02-30T10:00:00.000Z" is not a real date and time`)
  t.equal((await logged).msg, `fixtures not reloaded, the last good data is still served. ${error.message}`)
  t.strictSame(store.current.dataset.lines, [line()], 'the last good data is still served')

  const reloaded = nextReload(watcher)
  const reloadLogged = logs.next(record => record.msg.startsWith('fixtures reloaded'))
  await saveFile(file, json({ counting_lines: [line({ name: 'Fixed' })] }))
  const [diff] = await reloaded
  t.strictSame(diff.linesChanged, [{ camera_id: 'cam-1', id: 'line-1' }])
  t.equal(store.current.dataset.lines[0]?.name, 'Fixed')
  const record = await reloadLogged
  t.equal(record.msg, 'fixtures reloaded: 1 line changed (line-1 of cam-1)')
  t.match(record.changes, { linesChanged: 1, linesAdded: 0 })
})

t.test('a reload reports an impossible date beside the schema\'s problems; hidden files are not fixtures', async t => {
  const { dir, watcher } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })
  const file = join(dir, 'a.json')
  // An editor's lock file appears beside the file being edited; it is neither read nor a reason to reload.
  await symlink('nobody@host.1234', join(dir, '.#a.json'))
  const rejected = nextReject(watcher)
  await saveFile(file, json({ counting_lines: [line({ created: '2024-02-30T10:00:00.000Z', max_age: 'old' as never })] }))
  const [error] = await rejected
  t.match(error.message, `${file}: /counting_lines/0/max_age: must be a whole number, not "old"`)
  t.match(error.message, `${file}: /counting_lines/0/created: "2024-02-30T10:00:00.000Z" is not a real date and time`)
  t.notMatch(error.message, '.#a.json')
})

t.test('files added to and removed from a watched folder count', async t => {
  const { dir, store, watcher } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })

  let reloaded = nextReload(watcher)
  await saveFile(join(dir, 'b.json'), json({ cameras: [{ id: 'cam-9' }], counting_lines: [line({ camera_id: 'cam-2' })] }))
  let [diff] = await reloaded
  t.strictSame(diff.camerasAdded, ['cam-9', 'cam-2'])
  t.strictSame(diff.linesAdded, [{ camera_id: 'cam-2', id: 'line-1' }])
  t.ok(store.camera('cam-9'), 'the new camera is served')

  reloaded = nextReload(watcher)
  await rm(join(dir, 'b.json'))
  ;[diff] = await reloaded
  t.strictSame(diff.camerasRemoved, ['cam-9', 'cam-2'])
  t.equal(store.camera('cam-9'), undefined, 'the removed camera is gone')
})

t.test('a watched folder left without fixture files keeps the last good data', async t => {
  const { dir, store, watcher } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })
  const rejected = nextReject(watcher)
  await rm(join(dir, 'a.json'))
  const [error] = await rejected
  t.equal(error.message, `Invalid fixtures:\n  ${dir}: the folder holds no .json file`)
  t.ok(store.camera('cam-1'))
})

t.test('deleting the watched folder is reported and the last good data stays', async t => {
  const { dir, store, logs } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })
  const reported = logs.next(record => record.level === 50 && record.msg.includes('no such file or folder'))
  await rm(dir, { recursive: true })
  t.equal((await reported).msg, `fixtures not reloaded, the last good data is still served. Invalid fixtures:\n  ${dir}: no such file or folder`)
  t.ok(store.camera('cam-1'))
})

t.test('a single watched file is picked up when an editor replaces it', async t => {
  const { dir, store, watcher } = await watchFixtures(t, {
    'main.json': json({ counting_lines: [line()] }),
    'other.json': json({ cameras: [{ id: 'cam-other' }] })
  }, 'main.json')
  t.equal(store.camera('cam-other'), undefined, 'only the named file is loaded')

  const reloaded = nextReload(watcher)
  await saveFile(join(dir, 'main.json'), json({ counting_lines: [line(), line({ id: 'line-2' })] }))
  const [diff] = await reloaded
  t.strictSame(diff.linesAdded, [{ camera_id: 'cam-1', id: 'line-2' }])
  t.equal(store.camera('cam-1')?.lineCount, 2)
})

t.test('a mounted ConfigMap is reloaded when its ..data link is swapped', async t => {
  // The layout Kubernetes gives a ConfigMap volume: each file a link through ..data to a timestamped folder.
  const { dir, store, watcher } = await watchFixtures(t, {
    '..v1': { 'a.json': json({ counting_lines: [line()] }) },
    '..data': t.fixture('symlink', '..v1'),
    'a.json': t.fixture('symlink', '..data/a.json')
  })
  const reloaded = changingReload(watcher)
  await mkdir(join(dir, '..v2'))
  await writeFile(join(dir, '..v2', 'a.json'), json({ counting_lines: [line({ name: 'Updated' })] }))
  await symlink('..v2', join(dir, '..data_tmp'))
  await rename(join(dir, '..data_tmp'), join(dir, '..data'))
  const diff = await reloaded
  t.strictSame(diff.linesChanged, [{ camera_id: 'cam-1', id: 'line-1' }])
  t.equal(store.current.dataset.lines[0]?.name, 'Updated')
})

t.test('reloads asked for during a reload share one more reload after it', async t => {
  const { watcher, logs } = await watchFixtures(t, { 'a.json': json({ counting_lines: [line()] }) })
  let reloads = 0
  watcher.on('reload', () => { reloads++ })
  const first = watcher.reload()
  const second = watcher.reload()
  const third = watcher.reload()
  t.equal(second, third, 'calls during a reload share the next one')
  await Promise.all([first, second, third])
  t.equal(reloads, 2)
  t.equal(logs.records.at(-1)?.msg, 'fixtures reloaded: nothing changed')
})

t.test('the watcher says what it watches, and closing waits for a reload in progress', async t => {
  const { dir, watcher, logs } = await watchFixtures(t, { 'a.json': json({}) })
  t.equal(logs.records[0]?.msg, `watching ${dir} for changes`)
  let reloaded = false
  watcher.on('reload', () => { reloaded = true })
  const reloading = watcher.reload()
  await watcher.close()
  t.ok(reloaded, 'the reload finished before close resolved')
  await reloading
})

t.test('a burst of edits is one reload, once the files are quiet', async t => {
  const files = { 'a.json': json({ counting_lines: [line()] }), 'b.json': json({ counting_lines: [line({ id: 'line-2' })] }) }
  // A wide window, so that edits spread over a few ticks fall inside it on any machine.
  const { dir, watcher } = await watchFixtures(t, files, undefined, 1000)
  let reloads = 0
  watcher.on('reload', () => { reloads++ })
  const reloaded = changingReload(watcher)
  await saveFile(join(dir, 'a.json'), json({ counting_lines: [line({ name: 'A' })] }))
  await new Promise(resolve => setImmediate(resolve))
  await saveFile(join(dir, 'b.json'), json({ counting_lines: [line({ id: 'line-2', name: 'B' })] }))
  await new Promise(resolve => setImmediate(resolve))
  await saveFile(join(dir, 'c.json'), json({ counting_lines: [line({ id: 'line-3' })] }))
  const diff = await reloaded
  t.equal(reloads, 1, 'one reload for the three edits')
  t.strictSame(diff.linesChanged.map(({ id }) => id).sort(), ['line-1', 'line-2'])
  t.strictSame(diff.linesAdded.map(({ id }) => id), ['line-3'])
})
