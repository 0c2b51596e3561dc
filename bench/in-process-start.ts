// npm run bench:start [-- --starts N]
// How long startMockNvr() takes inside a test process, from the built package as a test suite imports it:
// the first start (bundled fixtures read and checked, schemas compiled) and the later ones (median).
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'

const { values } = parseArgs({ options: { starts: { type: 'string', default: '20' } } })
const starts = Number(values.starts)
if (!Number.isInteger(starts) || starts < 1) throw new Error(`--starts must be a whole number from 1, not '${values.starts}'`)

// The built entry, as the package exports it; a computed specifier so neither tsc nor tsx picks the source.
const entry = new URL('../dist/index.js', import.meta.url).href
const importStarted = performance.now()
const { startMockNvr } = await import(entry) as typeof import('../src/index.js')
const importMs = performance.now() - importStarted

async function timedStart (): Promise<number> {
  const started = performance.now()
  const nvr = await startMockNvr({ logLevel: 'silent' })
  const elapsed = performance.now() - started
  await nvr.close()
  return elapsed
}

const firstMs = await timedStart()
const laterMs: number[] = []
for (let run = 0; run < starts; run++) laterMs.push(await timedStart())
laterMs.sort((a, b) => a - b)
const median = laterMs[Math.floor(laterMs.length / 2)] as number

const ms = (value: number) => `${value.toFixed(1)} ms`
process.stdout.write(`import 'mock-nvr': ${ms(importMs)}\n`)
process.stdout.write(`first startMockNvr(): ${ms(firstMs)}\n`)
process.stdout.write(`later starts (median of ${starts}): ${ms(median)}, fastest ${ms(laterMs[0] as number)}, slowest ${ms(laterMs.at(-1) as number)}\n`)
