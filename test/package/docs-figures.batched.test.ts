import t from 'tap'
import { BODY_LIMIT_BYTES, DEFAULT_LIMITS } from '../../src/config/limits.js'
import { DEFAULT_MAX_HEADER_SIZE } from '../../src/config/options-schema.js'
import { DOC_PAGES, readDoc } from '../helpers/docs.js'

// Figures of time, memory and size in the pages that hold measurements come from a run: each paragraph, table or
// output that gives one says, itself or in the paragraphs just before it under the same heading, the date it was
// measured and the command that measured it (and its section names the machine). A figure written from memory, or
// one whose run was forgotten, fails here with its page, its heading and the figure.

/** Every page of the docs: the figures of those without measurements are settings and examples, listed below. */
const PAGES = DOC_PAGES

/** The pages that hold measurements; the check is blind if it finds none there. */
const MEASURED = [
  'README.md', 'docs/performance.md', 'docs/fleet.md', 'docs/metrics.md', 'docs/development.md', 'docs/testing.md',
  'docs/fixtures.md', 'docs/limits-and-safety.md'
]

/** A figure of time, memory, size or speed: a number and its unit (a line may break between them), or a ratio. */
const FIGURE = /(?<![\w.-])\d[\d,]*(?:\.\d+)?(?:\s*(?:ms|µs|MB|KB|GB|bytes|req\/s)|\s+s)\b|\b\d+\.\d+×/g

/** Where a run is named: the commands that measure, and the tools the benches are built on. */
const COMMAND = /npm run (?:bench|soak)|npm test|\/usr\/bin\/time|\.ci\/run|bench:(?:fleet|flapping|instructions|start)|node dist\/cli\.js|valgrind|--heapsnapshot-signal|--cpu-prof|\/proc\/PID/
const DATE = /\b20\d\d-\d\d-\d\d\b/
const MACHINE = /2-core|2 cores|2 vCPUs/

/** How many blocks before a figure's may name its run (the paragraph that introduces a table or an output). */
const REACH = 3

/**
 * Figures that are settings, not measurements: a limit or a default the code enforces, a value in an example, or a
 * size the reader chooses. Each is written out with enough words around it to match that one place only.
 */
const SETTINGS: Record<string, RegExp[]> = {
  'docs/agents.md': [
    /is online 5 s later/ // a reboot's 5 s of starting, in an example conversation
  ],
  'docs/command-line.md': [
    /up 5 s, down 5 s/, // FRACTION_FLAPPING
    /to 0\.01 ms/ // the log line's precision
  ],
  'docs/dashboard.md': [
    /down 5 s, then starting 5 s\), \*\*Slow \(1 s an answer\)\*\*/, // the buttons of dashboard/health-view.js
    /Offline for\s+10 s/
  ],
  'docs/device-health.md': [
    /Offline for 10 s/,
    /up 5 s, down 5 s/,
    /5 s down, 5 s starting/
  ],
  'docs/docker.md': [
    /5 s after the start/ // the Dockerfile's HEALTHCHECK --interval=5s
  ],
  'docs/faults-and-latency.md': [
    /up to 300 000 ms/, // MAX_DELAY_MS
    /a gateway timeout after 5 s/,
    /waits 200 ms|from 100 to 800 ms/ // examples of --latency
  ],
  'docs/frontend-testing.md': [
    /retrying in 30 s/ // the text of an example app
  ],
  'docs/fleet.md': [
    /a 30 s interval and a 10 s time-out/,
    /a scrape timeout of 10 s/
  ],
  'docs/metrics.md': [
    /every 5 s/
  ],
  'docs/testing.md': [
    /every 200 ms of the clock/,
    /up to 64 MB/
  ],
  'docs/fixtures.md': [
    /gathered for 100 ms/
  ],
  'docs/limits-and-safety.md': [
    /\| limit \| flag \| environment \| default \|[\s\S]*/, // the table of limits: defaults the code holds, Node's, a proxy's
    /64 KB at a time/,
    /takes more than 10 s/,
    /past 16 MB waiting/,
    /3 s of warm-up plus 20 s|more than 30 MB/
  ],
  'docs/performance.md': [
    /up 500 ms, down 500 ms/,
    /in steps of 100 ms|in 100 ms steps/,
    /a 64 KB chunk|past 16 MB waiting/
  ]
}

interface Block { heading: string, text: string }

/** A page's blocks: paragraphs, lists, tables and fenced code, each under the heading it falls under. */
function blocks (page: string): Block[] {
  const found: Block[] = []
  let heading = '(top)'
  let lines: string[] = []
  let fenced = false
  const end = (): void => {
    if (lines.length > 0) found.push({ heading, text: lines.join('\n') })
    lines = []
  }
  for (const line of page.split('\n')) {
    if (line.startsWith('```')) fenced = !fenced
    if (!fenced && line.startsWith('#')) {
      end()
      heading = line
      continue
    }
    if (!fenced && line.trim() === '') end()
    else lines.push(line)
  }
  end()
  return found
}

/** The figures of a block that are not among the page's settings. */
function figures (path: string, text: string): string[] {
  let rest = text
  for (const setting of SETTINGS[path] ?? []) rest = rest.replace(new RegExp(setting.source, 'g'), '')
  // Commands and code spans carry flags and file names, not figures (`--duration 5`, `--latency 200`).
  rest = rest.replace(/`[^`\n]*`/g, '')
  return rest.match(FIGURE) ?? []
}

for (const path of PAGES) {
  t.test(`${path}: every measured figure names its run's command and date, and its section the machine`, async t => {
    const all = blocks(readDoc(path))
    let measured = 0
    all.forEach((block, index) => {
      const found = figures(path, block.text)
      if (found.length === 0) return
      measured++
      const near = all.slice(Math.max(0, index - REACH), index + 1).filter(each => each.heading === block.heading)
      const context = near.map(each => each.text).join('\n')
      const section = all.filter(each => each.heading === block.heading).map(each => each.text).join('\n')
      const where = `${block.heading} — ${found.slice(0, 4).join(', ')} in "${block.text.slice(0, 80).replace(/\n/g, ' ')}…"`
      t.match(context, DATE, `a date near ${where}`)
      t.match(context, COMMAND, `a command near ${where}`)
      t.match(section, MACHINE, `the machine in the section of ${where}`)
    })
    if (MEASURED.includes(path)) t.ok(measured > 0, `${path} has measured figures (${measured} blocks)`)
  })
}

t.test('each setting left out of the check is still on its page: none outlives the text it was written for', async t => {
  for (const [path, settings] of Object.entries(SETTINGS)) {
    const page = readDoc(path)
    for (const setting of settings) t.match(page, setting, `${path}: ${setting.source}`)
  }
})

t.test('the table of limits, left out of the check as settings, gives the defaults the code holds', async t => {
  const page = readDoc('docs/limits-and-safety.md')
  const defaults: Array<[string, number]> = [
    ['--max-header-size BYTES', DEFAULT_MAX_HEADER_SIZE],
    ['--headers-timeout MS', DEFAULT_LIMITS.headersTimeout],
    ['--request-timeout MS', DEFAULT_LIMITS.requestTimeout],
    ['--keep-alive-timeout MS', DEFAULT_LIMITS.keepAliveTimeout],
    ['--max-connections N', DEFAULT_LIMITS.maxConnections]
  ]
  for (const [flag, value] of defaults) t.match(page, new RegExp(`\\| \`${flag}\` \\| \`\\w+\` \\| \`${value}\` \\|`), `${flag}: ${value}`)
  t.equal(BODY_LIMIT_BYTES, 1024 * 1024)
  t.match(page, '| request body | none | | 1 MiB |', 'the body limit, 1 MiB')
})

t.test('a figure without its run is found: the check is not blind', async t => {
  const page = '## Somewhere\n\nA fleet of 10,000 devices starts in 1.5 s in 210 MB.\n'
  const all = blocks(page)
  t.equal(all.length, 1)
  t.strictSame(figures('docs/fleet.md', all[0]?.text ?? ''), ['1.5 s', '210 MB'])
  t.notMatch(all[0]?.text ?? '', DATE)
  t.strictSame(figures('docs/fleet.md', 'a scrape timeout of 10 s, `--duration 5`, UTF-8 bytes'), [])
  t.strictSame(figures('docs/fleet.md', 'levels off at about\n  285 MB, a ratio of 0.93×'), ['285 MB', '0.93×'])
  t.strictSame(figures('docs/fleet.md', 'levels off at about 285\n  MB'), ['285\n  MB'])
})
