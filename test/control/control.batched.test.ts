import t from 'tap'
import { FixtureError, InvalidFaultError, startMockNvr, type MockNvr } from '../../src/index.js'
import { AUTH, line, SAMPLE_DATA } from '../helpers/app.js'

async function names (nvr: MockNvr, camera = 'cam-1'): Promise<string[] | number> {
  const response = await fetch(`${nvr.url}/nvr/v1/cameras/${camera}/counting_lines`, { headers: AUTH })
  if (response.status !== 200) return response.status
  return ((await response.json()) as { content: Array<{ name: string }> }).content.map(({ name }) => name)
}

t.test('use() serves new data from the very next request, and resetData() brings the start-up data back', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  t.strictSame(await names(nvr), ['Door', 'Gate'])
  t.strictSame(nvr.use({ counting_lines: [line({ name: 'Loading bay' }), line({ id: 'line-9', camera_id: 'cam-9' })] }), { cameras: 2, countingLines: 2 })
  t.strictSame(await names(nvr), ['Loading bay'])
  t.equal(await names(nvr, 'cam-empty'), 404, 'a camera of the old data is gone')
  t.strictSame(nvr.resetData(), { cameras: 3, countingLines: 3 })
  t.strictSame(await names(nvr), ['Door', 'Gate'])
})

t.test('a rejected replacement throws the FixtureError a fixture file would, and changes nothing', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  const broken = { counting_lines: [line({ name: 'New' }), line({ created: '2024-02-30T10:00:00.000Z' }), { ...line({ id: 'line-2' }), colour: 'red' }] }
  t.throws(() => nvr.use(broken), new FixtureError([
    { file: 'data', path: '/counting_lines/2/colour', message: 'is not a known field' }
  ]))
  t.throws(() => nvr.use({ counting_lines: [line(), line({ created: '2024-02-30T10:00:00.000Z' })] }), new FixtureError([
    { file: 'data', path: '/counting_lines/1/created', message: '"2024-02-30T10:00:00.000Z" is not a real date and time' }
  ]))
  t.throws(() => nvr.use({ counting_lines: [line(), line()] }), { name: 'FixtureError', problems: [{ path: '/counting_lines/1/id', message: /already defined/ }] })
  t.throws(() => nvr.use('not data' as never), { name: 'FixtureError', problems: [{ path: '', message: 'must be an object' }] })
  t.strictSame(await names(nvr), ['Door', 'Gate'], 'the old data is still served')
})

t.test('data() returns what is served, in the shape of a fixture file that use() takes back', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  const served = nvr.data()
  t.strictSame(served.cameras, [{ id: 'cam-1' }, { id: 'cam-empty' }, { id: 'cam-2' }])
  t.strictSame(served.counting_lines, SAMPLE_DATA.counting_lines)
  t.strictSame(nvr.use(served), { cameras: 3, countingLines: 3 })
})

t.test('injectFault() refuses a bad spec, naming each problem and where it is', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  const refused = (spec: unknown, problems: Array<{ path: string, message: string }>) =>
    t.throws(() => nvr.injectFault(spec as never), { name: 'InvalidFaultError', problems }, JSON.stringify(spec))
  refused({}, [{ path: '', message: 'needs status, drop, malformed or delay: what should happen to the requests' }])
  refused({ status: 503, drop: true, malformed: true }, [{ path: '/drop', message: 'cannot be combined with status: a request gets one answer' }])
  refused({ drop: true, retryAfter: 5, errorCode: 'X', errorMessage: 'x' }, [{ path: '/errorCode', message: 'only goes with status' }, { path: '/errorMessage', message: 'only goes with status' }, { path: '/retryAfter', message: 'only goes with status' }])
  refused({ delay: { min: 500, max: 100 } }, [{ path: '/delay', message: 'must go from low to high, not from 500 to 100' }])
  refused({ delay: '800' }, [{ path: '/delay', message: 'must be milliseconds from 0 to 300000, or { "min": …, "max": … } for a random delay in that range' }])
  refused({ status: 200 }, [{ path: '/status', message: 'must be a whole number from 400 to 599, not 200' }])
  refused({ status: 600 }, [{ path: '/status', message: 'must be a whole number from 400 to 599, not 600' }])
  refused({ status: 500, route: 'create' }, [{ path: '/route', message: 'must be "list" or "retrieve"' }])
  refused({ status: 500, times: 0, camera: '' }, [{ path: '/camera', message: 'must not be empty' }, { path: '/times', message: 'must be a whole number from 1 to 1000000, not 0' }])
  refused({ drop: false }, [{ path: '/drop', message: 'must be true' }])
  refused({ status: 500, colour: 'red' }, [{ path: '/colour', message: 'is not a known field' }])
  refused({ status: 5.5 }, [{ path: '/status', message: 'must be a whole number from 400 to 599, not 5.5' }])
  refused(null, [{ path: '', message: 'must be an object' }])
  t.equal(new InvalidFaultError([{ path: '/status', message: 'must be at most 599' }, { path: '', message: 'oops' }]).message,
    'Invalid fault: /status: must be at most 599; oops')
  t.strictSame(nvr.faults(), [], 'nothing was injected')
})

t.test('faults() lists the faults in force; clearFaults() clears one or all', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  nvr.injectFault({ status: 503, times: 2, route: 'list' })
  nvr.injectFault({ delay: { min: 1, max: 2 }, camera: 'cam-2' })
  nvr.injectFault({ malformed: true })
  t.strictSame(nvr.faults(), [
    { id: 'fault-1', status: 503, times: 2, route: 'list', remaining: 2 },
    { id: 'fault-2', delay: { min: 1, max: 2 }, camera: 'cam-2', remaining: null },
    { id: 'fault-3', malformed: true, remaining: null }
  ])
  t.equal(nvr.clearFaults('fault-2'), true)
  t.strictSame(nvr.faults().map(fault => fault.id), ['fault-1', 'fault-3'])
  t.equal(nvr.clearFaults(), true)
  t.strictSame(nvr.faults(), [])
})

t.test('reset() brings back the start-up data, removes every fault and empties the journal', async t => {
  const nvr = await startMockNvr({ data: SAMPLE_DATA })
  t.teardown(() => nvr.close())
  nvr.use({ cameras: [{ id: 'cam-other' }] })
  nvr.injectFault({ status: 500 })
  t.equal(await names(nvr, 'cam-other'), 500)
  nvr.reset()
  t.strictSame(nvr.faults(), [])
  t.strictSame(nvr.requests(), [])
  t.strictSame(await names(nvr), ['Door', 'Gate'])
  t.equal(nvr.injectFault({ status: 503 }).id, 'fault-1', 'fault ids start again')
  for (let count = 0; count < 1001; count++) await nvr.app.inject({ url: '/healthz' })
  t.equal(nvr.requests().length, 1000, 'the journal keeps its capacity')
})
