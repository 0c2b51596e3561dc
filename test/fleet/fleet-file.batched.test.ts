import { join } from 'node:path'
import t, { type Test } from 'tap'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { startMockFleet } from '../../src/index.js'
import { SAMPLE_DATA, AUTH } from '../helpers/app.js'

const refusal = async (t: Test, content: string) => {
  const dir = t.testdir({ 'fleet.json': content })
  const file = join(dir, 'fleet.json')
  const error = await readFleetFile(file).then(() => undefined, (caught: Error) => caught)
  return { file, message: error?.message.replaceAll(file, 'FILE') }
}

t.test('a fleet file\'s problems are each named by file, JSON path and what is wrong', async t => {
  t.equal((await refusal(t, '{"devices": [')).message, 'Invalid fleet file:\n  FILE: is not valid JSON at line 1, column 14')
  t.equal((await refusal(t, '{"devices": []}')).message, 'Invalid fleet file:\n  FILE: /devices: must list at least 1 device', 'not TypeBox\'s own words')
  t.equal((await refusal(t, '{"devices": [null, {"name": "a", "fixtures": 3}]}')).message, 'Invalid fleet file:\n  FILE: /devices/0: must be an object, not null\n  FILE: /devices/1/fixtures: must be a string, not 3')
  t.equal((await refusal(t, '{"devices": 3, "generate": "1x1", "fixtures": "."}')).message,
    'Invalid fleet file:\n  FILE: /generate: cannot be combined with fixtures: generated data is served instead of fixture files\n  FILE: /devices: must be an array, not 3')
  t.equal((await refusal(t, '[]')).message, 'Invalid fleet file:\n  FILE: must be an object: { "devices": [ … ] }')
  t.equal((await refusal(t, '{"now": 1, "devices": [{"name": "a"}]}')).message, 'Invalid fleet file:\n  FILE: /now: is not a known field', 'an option the library retired is no field of a file')
  const several = (await refusal(t, '{"devices": [{"name": "a b", "port": 70000, "colour": 1}], "tokens": [""]}')).message
  for (const path of ['/devices/0/name', '/devices/0/port', '/devices/0/colour', '/tokens/0']) t.match(several, `FILE: ${path}: `)
  t.equal((await refusal(t, JSON.stringify({ devices: [{ name: 'a', port: 9001 }, { name: 'a', port: 9001 }] }))).message,
    'Invalid fleet file:\n  FILE: /devices/1/name: is "a", the name of devices[0] too: each device needs a name of its own\n  FILE: /devices/1/port: is 9001, the port of devices[0] too')
  t.equal((await refusal(t, JSON.stringify({ generate: '3y4', devices: [{ name: 'a', generate: '2x2', fixtures: '.' }] }))).message,
    'Invalid fleet file:\n  FILE: /generate: must be CAMERASxLINES, e.g. 100x20, not \'3y4\'\n  FILE: /devices/0/generate: cannot be combined with fixtures: generated data is served instead of fixture files')
  t.match((await refusal(t, JSON.stringify({ devices: [{ name: 'a', scopedTokens: [{ token: 'x' }], rateLimit: 0 }] }))).message, /\/devices\/0\/scopedTokens\/0\/cameras[\s\S]*\/devices\/0\/rateLimit/)
  t.match(((await readFleetFile('/no/such/fleet.json').catch((error: Error) => error)) as Error).message, 'Invalid fleet file:\n  /no/such/fleet.json: no such file or folder')
})

t.test('a file with six mistakes reports all six in one run, each with its JSON path', async t => {
  const { file, message } = await refusal(t, JSON.stringify({
    drift: { every: 60000 },
    devices: [
      { name: 'p', latency: { min: 800, max: 100 } },
      { name: 'ok-1', fixtures: 'missing-folder' },
      { name: 'a b', rateLimit: 0 },
      { name: 'q', health: { state: 'asleep' }, generate: 'ten' }
    ]
  }))
  const folder = file.slice(0, -'/fleet.json'.length)
  t.equal(message, [
    'Invalid fleet file:',
    '  FILE: /drift: must be a whole number from 1 to 2147483647, not {"every":60000}',
    "  FILE: /devices/2/name: must be 1 to 64 letters, digits, '.', '_' or '-', starting with a letter or digit (it is a path segment of the admin API), not \"a b\"",
    '  FILE: /devices/2/rateLimit: must be a whole number from 1 to 1000000, not 0',
    '  FILE: /devices/0/latency: must go from low to high, not from 800 to 100',
    "  FILE: /devices/3/generate: must be CAMERASxLINES, e.g. 100x20, not 'ten'",
    '  FILE: /devices/3/health/state: must be one of "online", "offline", "unreachable", "rebooting", "slow", not "asleep"',
    `  FILE: /devices/1/fixtures: "missing-folder" (${folder}/missing-folder): no such file or folder`
  ].join('\n'))
})

t.test('generate takes the flag\'s text or the library\'s object; drift takes milliseconds, as every surface does', async t => {
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ drift: 60000, devices: [{ name: 'a', generate: '2x1' }, { name: 'b', generate: { cameras: 1, linesPerCamera: 2 } }] }) })
  const fleet = await readFleetFile(join(dir, 'fleet.json'))
  t.strictSame(fleet, { defaults: { drift: 60000 }, devices: [{ name: 'a', generate: '2x1' }, { name: 'b', generate: { cameras: 1, linesPerCamera: 2 } }] })
})

t.test('a good file: fixtures relative to it, shared; generate per device; top-level settings for every device', async t => {
  const dir = t.testdir({
    data: { 'site.json': JSON.stringify(SAMPLE_DATA) },
    'fleet.json': JSON.stringify({
      tokens: ['site-token'],
      fixtures: 'data',
      devices: [
        { name: 'site-a' },
        { name: 'site-b', tokens: ['b-token'], latency: 0 },
        { name: 'generated', generate: '2x1', seed: 3, port: 0 }
      ]
    })
  })
  const file = await readFleetFile(join(dir, 'fleet.json'))
  t.strictSame(file.defaults, { tokens: ['site-token'], fixtures: join(dir, 'data') })
  t.strictSame(file.devices[2], { name: 'generated', generate: '2x1', seed: 3, port: 0 })

  const fleet = await startMockFleet({ ...file.defaults, devices: file.devices })
  t.teardown(() => fleet.close())
  const read = async (name: string, token: string) => (await fetch(`${fleet.device(name)?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: `Bearer ${token}` } })).status
  t.strictSame([await read('site-a', 'site-token'), await read('site-b', 'b-token'), await read('site-b', 'site-token')], [200, 200, 401])
  t.strictSame(fleet.device('site-a')?.data(), fleet.device('site-b')?.data())
  t.strictSame(fleet.device('generated')?.data().cameras, [{ id: 'cam-1' }, { id: 'cam-2' }])
  t.equal(await read('generated', 'site-token'), 200, 'top-level tokens on a generated device too')
  t.equal(await read('generated', AUTH.authorization.slice(7)), 401)
})
