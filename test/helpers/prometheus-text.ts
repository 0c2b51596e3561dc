/** One sample of Prometheus's text format: its metric name, labels and value. */
export interface Sample {
  name: string
  labels: Record<string, string>
  value: number
}

const SAMPLE_LINE = /^([a-zA-Z_:][\w:]*)(?:\{(.*)\})? (\S+)$/
const LABEL = /(\w+)="((?:[^"\\]|\\.)*)"/g

/** The samples of a scrape; throws on a line that is neither a comment nor a sample, as a Prometheus server would refuse it. */
export function parsePrometheusText (text: string): Sample[] {
  const samples: Sample[] = []
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue
    const match = SAMPLE_LINE.exec(line)
    if (match === null) throw new Error(`not a sample: ${line}`)
    const labels: Record<string, string> = {}
    for (const [, name, value] of (match[2] ?? '').matchAll(LABEL)) labels[name as string] = (value as string).replace(/\\(.)/g, '$1')
    samples.push({ name: match[1] as string, labels, value: Number(match[3]) })
  }
  return samples
}

/** The value of the one sample of this name whose labels include these, or undefined when there is none. */
export function valueOf (samples: readonly Sample[], name: string, labels: Record<string, string> = {}): number | undefined {
  return samples.find(sample => sample.name === name && Object.entries(labels).every(([key, value]) => sample.labels[key] === value))?.value
}
