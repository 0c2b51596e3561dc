import t from 'tap'
import { listenDevices, listenOnFreePorts } from '../../src/fleet/free-ports.js'
import { FleetListenError } from '../../src/errors/errors.js'

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code })

/** A kernel that picks `picked` for port 0 and refuses the ports in `taken` or listened on (or `others`' codes). */
function fakeListen (picked: number, taken: ReadonlySet<number>, others: ReadonlyMap<number, string> = new Map()) {
  const tries: Array<[number, number]> = []
  const got = new Map<number, number>()
  let kernel = picked
  const inUse = new Set(taken)
  const listen = async (index: number, port: number): Promise<number> => {
    tries.push([index, port])
    const code = others.get(port)
    if (code !== undefined) throw failure(code)
    if (inUse.has(port)) throw failure('EADDRINUSE')
    const listened = port === 0 ? kernel++ : port
    inUse.add(listened)
    got.set(index, listened)
    return listened
  }
  return { listen, tries, got }
}

t.test('the kernel picks the first port, the others take the free ones above it, the taken ones again above the highest tried', async t => {
  const fake = fakeListen(40_000, new Set([40_002, 40_005]))
  t.equal(await listenOnFreePorts(5, fake.listen), undefined)
  t.strictSame(fake.tries, [[0, 0], [1, 40_001], [2, 40_002], [3, 40_003], [4, 40_004], [2, 40_005], [2, 40_006]])
  t.strictSame([...fake.got].sort(([a], [b]) => a - b).map(([, port]) => port), [40_000, 40_001, 40_006, 40_003, 40_004])
})

t.test('none to listen: nothing asked; past 65535 the kernel picks the rest', async t => {
  const none = fakeListen(40_000, new Set())
  await listenOnFreePorts(0, none.listen)
  t.strictSame(none.tries, [])
  const high = fakeListen(65_534, new Set([65_535]))
  await listenOnFreePorts(3, high.listen)
  t.strictSame(high.tries, [[0, 0], [1, 65_535], [2, 0], [1, 0]])
  t.equal(new Set(high.got.values()).size, 3, 'three ports')
})

t.test('any other failure, or the kernel\'s, names the listener that failed', async t => {
  const failed = async (listening: ReturnType<typeof listenOnFreePorts>) => await listening.then(failure => failure === undefined ? undefined : [failure.index, failure.reason.code])
  t.strictSame(await failed(listenOnFreePorts(3, fakeListen(40_000, new Set(), new Map([[40_002, 'EADDRNOTAVAIL']])).listen)), [2, 'EADDRNOTAVAIL'])
  t.strictSame(await failed(listenOnFreePorts(2, async () => { throw failure('EADDRNOTAVAIL') })), [0, 'EADDRNOTAVAIL'])
  const kernelFull = fakeListen(65_535, new Set([0]))
  t.strictSame(await failed(listenOnFreePorts(2, async (index, port) => index === 0 ? 65_535 : await kernelFull.listen(index, port))), [1, 'EADDRINUSE'], 'past 65535, the kernel\'s own refusal is final')
})

t.test('devices with ports of their own listen first, then those on free ports; a failure names the device and its port', async t => {
  const plans = [{ name: 'a', options: { port: 0 } }, { name: 'b', options: { port: 40_001 } }, { name: 'c', options: { port: 0 } }]
  const fake = fakeListen(40_000, new Set())
  await listenDevices(plans, fake.listen)
  t.strictSame(fake.tries, [[1, 40_001], [0, 0], [2, 40_001], [2, 40_002]], 'c finds 40001 taken by b, which listened first')
  await t.rejects(listenDevices(plans, fakeListen(40_000, new Set([40_001])).listen), new FleetListenError('b', 40_001, failure('EADDRINUSE'), 3))
  await t.rejects(listenDevices(plans, fakeListen(40_000, new Set(), new Map([[40_002, 'EADDRNOTAVAIL']])).listen), new FleetListenError('c', 0, failure('EADDRNOTAVAIL'), 3))
})

t.test('too many open files: the error says how many devices the process was starting, and how to raise the limit', async t => {
  const plans = [{ name: 'a', options: { port: 40_000 } }, { name: 'b', options: { port: 40_001 } }]
  const error = await listenDevices(plans, fakeListen(40_000, new Set(), new Map([[40_001, 'EMFILE']])).listen).catch((error: unknown) => error)
  t.match(error, { name: 'FleetListenError', device: 'b', port: 40_001, devices: 2, systemCode: 'EMFILE' })
  t.equal((error as Error).message, 'device b cannot listen on port 40001: too many open files (EMFILE): a fleet of 2 devices needs a file descriptor for each device, one for each open connection and a few hundred more; raise the limit of open files (ulimit -n) and start again; no device was started')
  t.equal(new FleetListenError('c', 80, failure('EMFILE')).message, 'device c cannot listen on port 80: too many open files (EMFILE): a fleet needs a file descriptor for each device, one for each open connection and a few hundred more; raise the limit of open files (ulimit -n) and start again; no device was started')
})
