// npm run bench:flapping [-- --devices N --seconds S]
// N devices in one app, each on its own port, each flapping (up 500 ms, down 500 ms, at its own seeded phase),
// walked for S seconds of a manual clock in steps of 100 ms: every port closed and opened again once a second.
// Prints the resident memory before and after, its growth, and the CPU time the walk took.
import { performance } from 'node:perf_hooks'
import { parseArgs } from 'node:util'
import { buildServingApp } from '../src/app/build-app.js'
import { DataStore, prepareServedData } from '../src/data/data-store.js'
import { loadFixtures, BUNDLED_FIXTURES } from '../src/data/fixtures.js'
import { resolveOptions } from '../src/config/options.js'
import { makeDevice } from '../src/device/make-device.js'
import { Roster } from '../src/device/roster.js'
import { ManualClock } from '../src/util/clock.js'
import { createRandom, seedFor } from '../src/util/random.js'
import { createLogger } from '../src/logging/logger.js'

const { values } = parseArgs({ options: { devices: { type: 'string', default: '1000' }, seconds: { type: 'string', default: '60' } } })
const count = Number(values.devices)
const seconds = Number(values.seconds)
const STEP_MS = 100

const options = resolveOptions({ logLevel: 'silent' })
const logger = createLogger(options)
const served = prepareServedData(await loadFixtures(BUNDLED_FIXTURES))
const clock = new ManualClock(0)
const devices = Array.from({ length: count }, (_, index) => {
  const name = `nvr-${String(index + 1).padStart(4, '0')}`
  const phase = Math.floor(createRandom(seedFor(1, name))() * 1000)
  return makeDevice(name, options, DataStore.serving(served), { clock }, { schedule: { plan: { pattern: 'flapping', up: 500, down: 500, phase } }, clock, seed: 1, log: logger })
})
const roster = new Roster(devices)
const { app, addListener } = await buildServingApp({ device: devices[0]!, maxHeaderSize: options.maxHeaderSize, logger })
await app.ready()
await Promise.all(devices.map(device => device.listen(addListener({ device, api: true, admin: false }), 0, '127.0.0.1')))
const settled = () => roster.settled()
await settled()

global.gc?.()
const rssBefore = process.memoryUsage().rss
const cpuBefore = process.cpuUsage()
const started = performance.now()
let peak = rssBefore
const checkpoints: string[] = []
const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1)
for (let elapsed = 0; elapsed < seconds * 1000; elapsed += STEP_MS) {
  clock.advance(STEP_MS)
  await settled()
  // A turn of the event loop, as between the timers of the real clock: a closed port's handle is freed by libuv
  // in that turn, and a walk that never gives one piles up a thousand closing handles a second.
  await new Promise(resolve => setImmediate(resolve))
  if ((elapsed + STEP_MS) % 20_000 === 0) {
    global.gc?.()
    const rss = process.memoryUsage().rss
    peak = Math.max(peak, rss)
    checkpoints.push(`${(elapsed + STEP_MS) / 1000} s: ${mb(rss)} MB (JS heap ${mb(process.memoryUsage().heapUsed)} MB)`)
  }
}
const wallMs = performance.now() - started
const cpu = process.cpuUsage(cpuBefore)
global.gc?.()
const rssAfter = process.memoryUsage().rss
const changes = devices.reduce((sum, device) => sum + device.events.entries().length, 0)
const listening = devices.filter(device => device.port?.listening === true).length
console.log(`devices ${count}, ${seconds} s of clock time in ${STEP_MS} ms steps: ${changes} changes of state kept (the last 200 per device), ${listening} listening at the end`)
console.log(`rss before ${mb(rssBefore)} MB, after ${mb(rssAfter)} MB, growth ${mb(rssAfter - rssBefore)} MB, peak ${mb(Math.max(peak, rssAfter))} MB`)
console.log(`rss along the way (after a GC): ${checkpoints.join(', ')}`)
console.log(`cpu user ${(cpu.user / 1000).toFixed(0)} ms, system ${(cpu.system / 1000).toFixed(0)} ms, wall ${wallMs.toFixed(0)} ms: ${((cpu.user + cpu.system) / 1000 / seconds).toFixed(1)} ms of CPU per second of clock time`)
await roster.stop()
await app.close()
