import { spawn, type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { existsSync } from 'node:fs'
import { mkdtemp, readFile, rm, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { parse, stringify } from 'yaml'
import { freePort } from '../../bench/processes.js'

/** Debian's Prometheus (`apt-get install prometheus`); another build can be named with PROMETHEUS_PATH. */
const PROMETHEUS_PATH = process.env.PROMETHEUS_PATH ?? '/usr/bin/prometheus'
const EXAMPLE_CONFIG = new URL('../../examples/grafana/prometheus.yml', import.meta.url)
const READY_TIMEOUT_MS = 30_000

interface ScrapeConfig {
  job_name: string
  authorization: { type?: string, credentials?: string, credentials_file?: string }
  scrape_interval: string
  scrape_timeout: string
  static_configs: Array<{ targets: string[] }>
}

/** One series of a query's answer: its labels, and its values by Unix time in seconds. */
export interface Series {
  metric: Record<string, string>
  values: Array<[number, number]>
}

/** A series as the HTTP API answers it: `values` for a range query, `value` for an instant one, as text. */
interface Answered {
  metric: Record<string, string>
  values?: Array<[number, string]>
  value?: [number, string]
}

/** A sample's value: the API writes infinities as +Inf and -Inf, which Number() does not read. */
function sampleValue (text: string): number {
  return text === '+Inf' ? Infinity : text === '-Inf' ? -Infinity : Number(text)
}

/** A Prometheus server of its own, scraping one target with the example's scrape config. */
export interface Prometheus {
  version: string
  /** Waits until the target has been scraped, and says why when it cannot be. */
  scraped: () => Promise<void>
  range: (query: string, start: number, end: number, step: number) => Promise<Series[]>
  instant: (query: string, time: number) => Promise<Series[]>
  close: () => Promise<void>
}

/**
 * Starts Prometheus on a free port with examples/grafana/prometheus.yml, changed only where a run on this machine
 * must differ: the target, the token given inline instead of from a file, and a shorter scrape interval.
 */
export async function startPrometheus (target: URL, token: string, scrapeIntervalSeconds: number): Promise<Prometheus> {
  if (!existsSync(PROMETHEUS_PATH)) throw new Error(`no Prometheus at ${PROMETHEUS_PATH}: apt-get install prometheus, or name one with PROMETHEUS_PATH`)
  const folder = await mkdtemp(join(tmpdir(), 'mock-nvr-prometheus-'))
  const config = parse(await readFile(EXAMPLE_CONFIG, 'utf8')) as { scrape_configs: ScrapeConfig[] }
  const job = config.scrape_configs[0] as ScrapeConfig
  job.authorization = { type: 'Bearer', credentials: token }
  job.scrape_interval = `${scrapeIntervalSeconds}s`
  job.scrape_timeout = `${scrapeIntervalSeconds}s`
  job.static_configs = [{ targets: [target.host] }]
  await writeFile(join(folder, 'prometheus.yml'), stringify(config))
  const port = await freePort()
  const child = spawn(PROMETHEUS_PATH, [`--config.file=${join(folder, 'prometheus.yml')}`, `--storage.tsdb.path=${join(folder, 'data')}`,
    `--web.listen-address=127.0.0.1:${port}`, '--log.level=warn'], { stdio: ['ignore', 'ignore', 'pipe'] })
  let log = ''
  child.stderr?.on('data', (chunk: Buffer) => { log += chunk.toString() })
  const url = `http://127.0.0.1:${port}`
  const close = async () => {
    await stop(child)
    await rm(folder, { recursive: true, force: true })
  }
  try {
    await ready(url, child, () => log)
    const version = ((await api(url, '/api/v1/status/buildinfo')) as { version: string }).version
    return {
      version,
      scraped: () => scraped(url, job.job_name),
      range: async (query, start, end, step) => ((await api(url, `/api/v1/query_range?${new URLSearchParams({ query, start: String(start), end: String(end), step: String(step) })}`)) as Answered[])
        .map(({ metric, values = [] }) => ({ metric, values: values.map(([time, value]) => [time, sampleValue(value)]) })),
      instant: async (query, time) => ((await api(url, `/api/v1/query?${new URLSearchParams({ query, time: String(time) })}`)) as Answered[])
        .map(({ metric, value }) => ({ metric, values: value === undefined ? [] : [[value[0], sampleValue(value[1])]] })),
      close
    }
  } catch (error) {
    await close()
    throw error
  }
}

async function ready (url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + READY_TIMEOUT_MS
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`Prometheus stopped at start:\n${log()}`)
    if (await fetch(`${url}/-/ready`).then(answer => answer.ok, () => false)) return
    await sleep(200)
  }
  throw new Error(`Prometheus was not ready in ${READY_TIMEOUT_MS / 1000} s:\n${log()}`)
}

async function scraped (url: string, job: string): Promise<void> {
  for (;;) {
    const { activeTargets } = await api(url, '/api/v1/targets') as { activeTargets: Array<{ labels: { job: string }, health: string, lastError: string }> }
    const target = activeTargets.find(candidate => candidate.labels.job === job)
    if (target?.health === 'up') return
    if (target?.health === 'down') throw new Error(`Prometheus could not scrape the fleet: ${target.lastError}`)
    await sleep(500)
  }
}

/** The `data` of an answer of Prometheus's HTTP API (its `result`, for a query). */
async function api (url: string, path: string): Promise<unknown> {
  const answer = await fetch(`${url}${path}`)
  const body = await answer.json() as { status: string, error?: string, data: { result?: unknown } }
  if (body.status !== 'success') throw new Error(`Prometheus refused ${decodeURIComponent(path)}: ${body.error ?? answer.status}`)
  return body.data.result ?? body.data
}

async function stop (child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return
  const exited = once(child, 'exit')
  child.kill('SIGTERM')
  await exited
}
