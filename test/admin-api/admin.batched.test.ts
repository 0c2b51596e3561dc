import t from 'tap'
import { AUTH, line, SAMPLE_DATA } from '../helpers/app.js'
import { ADMIN, ADMIN_TOKEN, buildControlled } from '../helpers/control.js'

const LIST = '/nvr/v1/cameras/cam-1/counting_lines'
const ok = (content: unknown, status = 200) => ({ result: { success: true, httpCode: status }, content })
const refusal = (status: number, errorCode: string, errorMessage: string, problems?: Array<[string, string]>) => ({
  result: { success: false, httpCode: status, errorCode, errorMessage, ...(problems === undefined ? {} : { problems: problems.map(([path, message]) => ({ path, message })) }) },
  content: null
})
const json = (body: unknown) => ({ headers: { ...ADMIN, 'content-type': 'application/json' }, payload: JSON.stringify(body) })

t.test('data over HTTP: GET shows it, PUT replaces it for the very next request, DELETE returns to the start-up data', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const shown = await app.inject({ url: '/__admin/data', headers: ADMIN })
  t.strictSame(shown.json(), ok({ cameras: [{ id: 'cam-1' }, { id: 'cam-empty' }, { id: 'cam-2' }], counting_lines: SAMPLE_DATA.counting_lines }))
  t.equal((await app.inject({ method: 'HEAD', url: '/__admin/data', headers: ADMIN })).statusCode, 200)

  const replaced = await app.inject({ method: 'PUT', url: '/__admin/data', ...json({ counting_lines: [line({ name: 'Replaced' })] }) })
  t.strictSame(replaced.json(), ok({ cameras: 1, countingLines: 1 }))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Replaced')
  t.equal((await app.inject({ url: '/nvr/v1/cameras/cam-2/counting_lines', headers: AUTH })).statusCode, 404)

  const reset = await app.inject({ method: 'DELETE', url: '/__admin/data', headers: ADMIN })
  t.strictSame(reset.json(), ok({ cameras: 3, countingLines: 3 }))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Door')
})

t.test('a refused data replacement is a 400 naming each JSON path and problem, as data too, and changes nothing', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const put = (body: unknown) => app.inject({ method: 'PUT', url: '/__admin/data', ...json(body) })
  const cases: Array<[unknown, string, Array<[string, string]>]> = [
    [{ counting_lines: [line({ created: '2024-02-30T10:00:00.000Z' })] }, '/counting_lines/0/created: "2024-02-30T10:00:00.000Z" is not a real date and time',
      [['/counting_lines/0/created', '"2024-02-30T10:00:00.000Z" is not a real date and time']]],
    [{ counting_lines: [line(), line()] }, '/counting_lines/1/id: line "line-1" of camera "cam-1" is already defined at request body /counting_lines/0',
      [['/counting_lines/1/id', 'line "line-1" of camera "cam-1" is already defined at request body /counting_lines/0']]],
    [{ counting_lines: [{ ...line(), max_age: 'long' }], colour: 1 }, '/colour: is not a known field; /counting_lines/0/max_age: must be a whole number, not "long"',
      [['/colour', 'is not a known field'], ['/counting_lines/0/max_age', 'must be a whole number, not "long"']]],
    [[], 'must be an object, not []', [['', 'must be an object, not []']]]
  ]
  for (const [body, sentence, problems] of cases) {
    const response = await put(body)
    t.equal(response.statusCode, 400)
    t.strictSame(response.json(), refusal(400, 'INVALID_BODY', `The request body is invalid: ${sentence}.`, problems))
  }
  t.equal((await app.inject({ url: LIST, headers: AUTH })).json().content[0].name, 'Door', 'the old data is still served')
})

t.test('faults over HTTP: POST injects one, GET lists them, DELETE clears one or all', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const created = await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 503, times: 1, route: 'list' }) })
  t.equal(created.statusCode, 201)
  t.strictSame(created.json(), ok({ id: 'fault-1', status: 503, times: 1, route: 'list', remaining: 1 }, 201))
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ delay: 10, camera: 'cam-2' }) })
  t.strictSame((await app.inject({ url: '/__admin/faults', headers: ADMIN })).json().content.map((fault: { id: string }) => fault.id), ['fault-1', 'fault-2'])

  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 503)
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200, 'back to normal after N requests')

  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults/fault-2', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults/fault-2', headers: ADMIN })).json(), refusal(404, 'FAULT_NOT_FOUND', 'No fault has the id "fault-2".'))
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 500 }) })
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/faults', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ url: '/__admin/faults', headers: ADMIN })).json(), ok([]))
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})

t.test('a bad fault body is a 400 in the envelope saying what is wrong and where', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const post = (payload: string, contentType = 'application/json') =>
    app.inject({ method: 'POST', url: '/__admin/faults', headers: { ...ADMIN, 'content-type': contentType }, payload })
  const cases: Array<[string, number, string, Array<[string, string]>?]> = [
    ['{"status": 700, "times": "2"}', 400, 'The request body is invalid: /status: must be a whole number from 400 to 599, not 700; /times: must be a whole number from 1 to 1000000, not "2".',
      [['/status', 'must be a whole number from 400 to 599, not 700'], ['/times', 'must be a whole number from 1 to 1000000, not "2"']]],
    ['{"status": 503, "drop": true}', 400, 'The request body is invalid: /drop: cannot be combined with status: a request gets one answer.',
      [['/drop', 'cannot be combined with status: a request gets one answer']]],
    ['{"delay": {"min": 900, "max": 100}}', 400, 'The request body is invalid: /delay: must go from low to high, not from 900 to 100.',
      [['/delay', 'must go from low to high, not from 900 to 100']]],
    ['{"route": "list"}', 400, 'The request body is invalid: needs status, drop, malformed or delay: what should happen to the requests.',
      [['', 'needs status, drop, malformed or delay: what should happen to the requests']]],
    ['{"status": 5', 400, 'The request body is not valid JSON at line 1, column 13.', [['', 'is not valid JSON at line 1, column 13']]],
    ['{"status": 503, "tims": 2}', 400, 'The request body is invalid: /tims: is not a known field; did you mean "times"?', [['/tims', 'is not a known field; did you mean "times"?']]],
    ['', 400, 'The request body is empty, but its Content-Type says JSON.']
  ]
  for (const [payload, status, message, problems] of cases) {
    const response = await post(payload)
    t.equal(response.statusCode, status, payload)
    t.strictSame(response.json(), refusal(status, 'INVALID_BODY', message, problems))
  }
  const plainText = await post('status=503', 'text/plain')
  t.equal(plainText.statusCode, 415)
  t.strictSame(plainText.json(), refusal(415, 'INVALID_BODY', 'The request body must be JSON, sent with Content-Type: application/json.'))
  t.strictSame(control.faults(), [], 'nothing was injected')
})

t.test('a body with a key that could change a prototype is refused naming the key and where it was', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  const send = (method: 'POST' | 'PUT', url: string, payload: string) => app.inject({ method, url, headers: { ...ADMIN, 'content-type': 'application/json' }, payload })
  const PROTOTYPE_KEY = 'is a key mock-nvr refuses, as it could change what every object inherits; leave it out'
  const refused = (path: string) => refusal(400, 'INVALID_BODY', `The request body is invalid: ${path}: ${PROTOTYPE_KEY}.`, [[path, PROTOTYPE_KEY]])
  const cases: Array<['POST' | 'PUT', string, string, string]> = [
    ['POST', '/__admin/faults', '{"status": 503, "__proto__": {"polluted": 1}}', '/__proto__'],
    ['PUT', '/__admin/data', '{"counting_lines": [{"id": "a"}, {"id": "b", "__proto__": null}]}', '/counting_lines/1/__proto__'],
    ['PUT', '/__admin/scoped-tokens', '[{"token": "t", "cameras": [], "constructor": {"prototype": {"polluted": 1}}}]', '/0/constructor/prototype'],
    ['POST', '/__admin/faults', '{"a/b~": {"__proto__": 1}}', '/a~1b~0/__proto__']
  ]
  for (const [method, url, payload, path] of cases) {
    const response = await send(method, url, payload)
    t.equal(response.statusCode, 400, payload)
    t.strictSame(response.json(), refused(path))
  }
  const both = await send('POST', '/__admin/faults', '{"__proto__": 1, "x": {"constructor": {"prototype": 2}}}')
  t.equal(both.json().result.errorMessage, 'The request body is invalid: /__proto__: is a key mock-nvr refuses, as it could change what every object inherits; leave it out; /x/constructor/prototype: is a key mock-nvr refuses, as it could change what every object inherits; leave it out.')
  t.equal((await send('POST', '/__admin/faults', '{"constructor": {"name": "x"}, "status": 503}')).json().result.errorMessage, 'The request body is invalid: /constructor: is not a known field.', 'a constructor without a prototype is an ordinary key')
  t.equal((await send('POST', '/__admin/faults', '{"__proto__": 1')).json().result.errorMessage, 'The request body is not valid JSON at line 1, column 16.')
  t.strictSame(control.faults(), [], 'nothing was injected')
  t.equal(({} as Record<string, unknown>).polluted, undefined, 'and nothing inherits')
})

t.test('the journal over HTTP: GET lists the requests with total and capacity, DELETE clears it', async t => {
  const { app } = await buildControlled(t, { adminToken: ADMIN_TOKEN, journalSize: 2 })
  for (const camera of ['cam-1', 'cam-2', 'cam-empty']) await app.inject({ url: `/nvr/v1/cameras/${camera}/counting_lines`, headers: AUTH })
  const listed = (await app.inject({ url: '/__admin/requests', headers: ADMIN })).json()
  t.match(listed, ok({ total: 3, capacity: 2, requests: [{ params: { id: 'cam-2' }, status: 200 }, { params: { id: 'cam-empty' }, status: 200 }] }))
  t.equal(listed.content.requests.length, 2)
  t.strictSame((await app.inject({ method: 'DELETE', url: '/__admin/requests', headers: ADMIN })).json(), ok(null))
  t.strictSame((await app.inject({ url: '/__admin/requests', headers: ADMIN })).json(), ok({ requests: [], total: 0, capacity: 2 }))
})

t.test('POST /__admin/reset brings back the start-up data, with no faults and an empty journal', async t => {
  const { app, control } = await buildControlled(t, { adminToken: ADMIN_TOKEN })
  await app.inject({ method: 'PUT', url: '/__admin/data', ...json({ cameras: [{ id: 'cam-x' }] }) })
  await app.inject({ method: 'POST', url: '/__admin/faults', ...json({ status: 500 }) })
  await app.inject({ url: LIST, headers: AUTH })
  t.strictSame((await app.inject({ method: 'POST', url: '/__admin/reset', headers: ADMIN })).json(), ok(null))
  t.strictSame(control.faults(), [])
  t.strictSame(control.requests(), [])
  t.equal((await app.inject({ url: LIST, headers: AUTH })).statusCode, 200)
})
