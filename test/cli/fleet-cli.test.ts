import { createServer, type AddressInfo } from 'node:net'
import { once } from 'node:events'
import { readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { printed, runCli, runCommand } from '../helpers/cli-process.js'
import { SAMPLE_DATA } from '../helpers/app.js'

const ADMIN = { authorization: 'Bearer fleet-admin' }

t.test('--devices 200: the control line first, the manifest and the admin list agree, the ready line last; SIGTERM closes every port', async t => {
  const manifest = join(t.testdir(), 'devices.json')
  const run = runCli(['--devices', '200', '--port', '0', '--admin-token', 'fleet-admin', '--manifest', manifest, '--log-level', 'silent'])
  await Promise.race([printed(run, 'mock-nvr fleet of 200 devices ready\n'), run.exit.then(code => { throw new Error(`exited ${String(code)}: ${run.stderr()}`) })])
  const lines = run.stdout().trimEnd().split('\n')
  const control = /^mock-nvr fleet control on (http:\/\/127\.0\.0\.1:\d+)$/.exec(lines[0] as string)?.[1] as string
  t.ok(control, lines[0] as string)
  t.equal(lines.at(-1), 'mock-nvr fleet of 200 devices ready')
  const written = JSON.parse(await readFile(manifest, 'utf8')) as { devices: Array<{ name: string, url: string, cameras: string[] }> }
  const listed = (await (await fetch(`${control}/__admin/devices`, { headers: ADMIN })).json() as { content: { devices: Array<Record<string, unknown>> } }).content.devices
  t.equal(written.devices.length, 200)
  t.strictSame(written.devices, listed.map(({ name, url, cameras }) => ({ name, url, cameras })))
  t.equal(written.devices[199]?.name, 'nvr-200')
  const health = await Promise.all(written.devices.map(async device => (await fetch(`${device.url}/healthz`)).status))
  t.strictSame(new Set(health), new Set([200]))

  run.child.kill('SIGTERM')
  t.equal(await run.exit, 0)
  const after = await Promise.allSettled([control, ...written.devices.map(device => device.url)].map(async url => await fetch(`${url}/healthz`)))
  t.strictSame(new Set(after.map(result => result.status)), new Set(['rejected']), 'every port is closed')
})

t.test('--fleet FILE with its env twin for the admin token: the devices the file lists, on its ports; SIGINT exits 0', async t => {
  const dir = t.testdir({ 'data.json': JSON.stringify(SAMPLE_DATA) })
  const file = join(dir, 'fleet.json')
  await writeFile(file, JSON.stringify({ fixtures: 'data.json', tokens: ['site'], devices: [{ name: 'site-a' }, { name: 'site-b', generate: '2x2' }, { name: 'site-c', tokens: ['c'] }] }))
  const run = runCli(['--fleet', file, '--port', '0', '--log-level', 'info'], { MOCK_NVR_ADMIN_TOKEN: 'fleet-admin', MOCK_NVR_PRETTY_LOGS: 'false' }, 'from source')
  await Promise.race([printed(run, 'mock-nvr fleet of 3 devices ready\n'), run.exit.then(code => { throw new Error(`exited ${String(code)}: ${run.stderr()}`) })])
  const control = /fleet control on (\S+)/.exec(run.stdout())?.[1] as string
  const listed = (await (await fetch(`${control}/__admin/devices`, { headers: ADMIN })).json() as { content: { devices: Array<{ name: string, url: string, cameras: string[] }> } }).content.devices
  t.strictSame(listed.map(device => [device.name, device.cameras.length]), [['site-a', 3], ['site-b', 2], ['site-c', 3]])
  const [a, , c] = listed
  t.equal((await fetch(`${a?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer site' } })).status, 200)
  t.equal((await fetch(`${c?.url as string}/nvr/v1/cameras/cam-1/counting_lines`, { headers: { authorization: 'Bearer site' } })).status, 401)
  t.match(run.stdout(), /"msg":"serving a fleet of devices"/)
  run.child.kill('SIGINT')
  t.equal(await run.exit, 0)
})

t.test('a busy port names the device and the port, exits 1 and leaves nothing listening', async t => {
  // The busy port is the kernel's, kept by this test; the other devices take free ones (port 0), so no port is
  // checked free, let go and then counted on.
  const blocker = createServer()
  blocker.listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const busy = (blocker.address() as AddressInfo).port
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b', port: busy }, { name: 'c' }] }) })
  const result = await runCommand(['--fleet', join(dir, 'fleet.json'), '--port', '0', '--control-port', '0', '--log-level', 'silent'])
  t.equal(result.code, 1)
  t.equal(result.stderr, `mock-nvr: cannot listen: device b cannot listen on port ${busy}: it is already in use; no device was started\n`)
  const control = /^mock-nvr fleet control on (http:\/\/127\.0\.0\.1:\d+)\n$/.exec(result.stdout)?.[1] as string
  t.ok(control, result.stdout)
  const after = await Promise.allSettled([fetch(`${control}/healthz`)])
  t.strictSame(after.map(each => each.status), ['rejected'], 'the control address closed again')
})

t.test('fleet-file problems and fleet flags out of place are refused before anything starts', async t => {
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'a' }] }) })
  const file = join(dir, 'fleet.json')
  const bad = await runCommand(['--fleet', file])
  t.equal(bad.code, 1)
  t.equal(bad.stderr, `mock-nvr: Invalid fleet file:\n  ${file}: /devices/1/name: is "a", the name of devices[0] too: each device needs a name of its own\n`)
  const usage = await runCommand(['--manifest', 'x.json'])
  t.equal(usage.code, 2)
  t.equal(usage.stderr, 'mock-nvr: --manifest applies to a fleet only: give --devices too. Run mock-nvr --help for the flags.\n')
  t.match((await runCommand(['--devices', '2', '--fleet', file])).stderr, '--devices cannot be combined with --fleet: the fleet file lists the devices')
  t.match((await runCommand(['--devices', '2', '--watch', '--generate', '1x1'])).stderr, '--watch cannot be combined with --generate: only fixture files can be watched')
  t.match((await runCommand(['--devices', '0'])).stderr, '--devices')
})

t.test('a fleet file past port 65535 is refused in the CLI\'s words: the flag that gave the port, the file and how many devices', async t => {
  const dir = t.testdir({
    'all.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b' }, { name: 'c' }] }),
    'some.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b' }, { name: 'c', port: 20001 }] })
  })
  const [all, some] = [join(dir, 'all.json'), join(dir, 'some.json')]
  t.strictSame(await runCommand(['--fleet', all, '--port', '65534']), {
    code: 1,
    stdout: '',
    stderr: `mock-nvr: --port 65534 with the 3 devices of ${all} (--fleet) would put the last device on port 65536: a fleet's ports must stay within 65535, so from port 65534 at most 2 devices\n`
  })
  t.match((await runCommand(['--fleet', some], { MOCK_NVR_PORT: '65535' })).stderr,
    `mock-nvr: MOCK_NVR_PORT 65535 with the first 2 devices of ${some} (--fleet) would put the last device on port 65536: a fleet's ports must stay within 65535, so from port 65535 at most 1 device\n`)
})

t.test('a busy control port is named as the control address, with --control-port', async t => {
  const blocker = createServer()
  blocker.listen(0, '127.0.0.1')
  await once(blocker, 'listening')
  t.teardown(() => blocker.close())
  const busy = (blocker.address() as AddressInfo).port
  const result = await runCommand(['--devices', '2', '--port', '0', '--control-port', String(busy), '--log-level', 'silent'])
  t.strictSame(result, {
    code: 1,
    stdout: '',
    stderr: `mock-nvr: cannot listen: the control address (the fleet's admin API and dashboard): port ${busy} on 127.0.0.1 is already in use; choose another port with --control-port\n`
  })
})

t.test('a missing fixtures path names the fleet file and the device\'s JSON path', async t => {
  const dir = t.testdir({ 'fleet.json': JSON.stringify({ devices: [{ name: 'a' }, { name: 'b', fixtures: 'gone' }] }) })
  const file = join(dir, 'fleet.json')
  t.strictSame(await runCommand(['--fleet', file]), {
    code: 1,
    stdout: '',
    stderr: `mock-nvr: Invalid fleet file:\n  ${file}: /devices/1/fixtures: "gone" (${join(dir, 'gone')}): no such file or folder\n`
  })
})

t.test('a port range past 65535 names --port, --devices and the edge, before anything listens', async t => {
  t.strictSame(await runCommand(['--port', '65530', '--devices', '10']), {
    code: 2,
    stdout: '',
    stderr: "mock-nvr: --port 65530 with --devices 10 would put the last device on port 65539: a fleet's ports must stay within 65535, so from port 65530 at most 6 devices. Run mock-nvr --help for the flags.\n"
  })
  t.equal((await runCommand([], { MOCK_NVR_PORT: '65535', MOCK_NVR_DEVICES: '2' })).stderr,
    "mock-nvr: MOCK_NVR_PORT 65535 with MOCK_NVR_DEVICES 2 would put the last device on port 65536: a fleet's ports must stay within 65535, so from port 65535 at most 1 device. Run mock-nvr --help for the flags.\n")
})
