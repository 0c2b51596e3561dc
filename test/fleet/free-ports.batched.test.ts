import t from 'tap'
import { FreePortFailure, listenOnFreePorts } from '../../src/fleet/free-ports.js'

const failure = (code: string) => Object.assign(new Error(`listen ${code}`), { code })

/** A kernel that picks `picked` for port 0 and refuses the ports in `taken` (or `others`' codes). */
function fakeListen (picked: number, taken: ReadonlySet<number>, others: ReadonlyMap<number, string> = new Map()) {
  const tries: Array<[number, number]> = []
  const got = new Map<number, number>()
  let kernel = picked
  const listen = async (index: number, port: number): Promise<number> => {
    tries.push([index, port])
    const code = others.get(port)
    if (code !== undefined) throw failure(code)
    if (taken.has(port)) throw failure('EADDRINUSE')
    const listened = port === 0 ? kernel++ : port
    got.set(index, listened)
    return listened
  }
  return { listen, tries, got }
}

t.test('the kernel picks the first port, the others take the free ones above it, the taken ones again above the highest tried', async t => {
  const fake = fakeListen(40_000, new Set([40_002, 40_005]))
  await listenOnFreePorts(5, fake.listen)
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
  await t.rejects(listenOnFreePorts(3, fakeListen(40_000, new Set(), new Map([[40_002, 'EADDRNOTAVAIL']])).listen), new FreePortFailure(2, failure('EADDRNOTAVAIL')))
  const failed = async (listening: Promise<void>) => await listening.then(() => undefined, (error: FreePortFailure) => [error.index, error.reason.code])
  t.strictSame(await failed(listenOnFreePorts(2, async () => { throw failure('EADDRNOTAVAIL') })), [0, 'EADDRNOTAVAIL'])
  const kernelFull = fakeListen(65_535, new Set([0]))
  t.strictSame(await failed(listenOnFreePorts(2, async (index, port) => index === 0 ? 65_535 : await kernelFull.listen(index, port))), [1, 'EADDRINUSE'], 'past 65535, the kernel\'s own refusal is final')
})
