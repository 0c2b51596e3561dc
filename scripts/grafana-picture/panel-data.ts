import type { Prometheus, Series } from './prometheus.js'

/** The parts of the dashboard's JSON model the picture draws. */
export interface Dashboard {
  title: string
  panels: Panel[]
  templating: { list: Array<{ name: string, label?: string, allValue?: string }> }
}

export interface Panel {
  id: number
  type: 'timeseries' | 'stat' | 'bargauge' | 'table'
  title: string
  gridPos: { x: number, y: number, w: number, h: number }
  fieldConfig: {
    defaults: {
      unit?: string
      decimals?: number
      min?: number
      max?: number
      custom?: { fillOpacity?: number, stacking?: { mode: string } }
      thresholds?: { steps: Array<{ color: string, value: number | null }> }
    }
    overrides: Array<{ matcher: { id: string, options: string }, properties: Array<{ id: string, value: { fixedColor?: string } }> }>
  }
  targets: Array<{ expr: string, legendFormat?: string, instant?: boolean }>
  transformations?: Array<{ id: string, options: { excludeByName?: Record<string, boolean>, indexByName?: Record<string, number> } }>
}

/** One drawn series: its name as the legend shows it, and its values by Unix time in seconds. */
export interface NamedSeries {
  name: string
  labels: Record<string, string>
  values: Array<[number, number]>
}

export interface Window {
  start: number
  end: number
  /** Seconds between two points, Grafana's $__interval. */
  step: number
  /** The job's scrape interval, in seconds. */
  scrapeInterval: number
}

/**
 * Grafana's $__rate_interval: four scrape intervals, or the step plus one scrape interval when that is longer,
 * so that a rate always has several samples to work with.
 */
export function rateInterval ({ step, scrapeInterval }: Window): number {
  return Math.max(step + scrapeInterval, 4 * scrapeInterval)
}

/** A panel's query as Grafana sends it: the variables replaced, `device` by its All value. */
export function expand (expr: string, dashboard: Dashboard, window: Window): string {
  let expanded = expr.replaceAll('$__rate_interval', `${rateInterval(window)}s`)
  for (const variable of dashboard.templating.list) expanded = expanded.replaceAll(`$${variable.name}`, variable.allValue ?? '.*')
  return expanded
}

function legend (format: string, labels: Record<string, string>): string {
  if (format === '') return Object.entries(labels).filter(([name]) => name !== '__name__').map(([name, value]) => `${name}="${value}"`).join(', ')
  return format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '')
}

/** Every panel's series, from Prometheus's answers to its queries over the window: a range query, or an instant one at its end. */
export async function panelData (dashboard: Dashboard, prometheus: Prometheus, window: Window): Promise<Map<number, NamedSeries[]>> {
  const data = new Map<number, NamedSeries[]>()
  for (const panel of dashboard.panels) {
    const series: NamedSeries[] = []
    for (const target of panel.targets) {
      const query = expand(target.expr, dashboard, window)
      const answer: Series[] = target.instant === true
        ? await prometheus.instant(query, window.end)
        : await prometheus.range(query, window.start, window.end, window.step)
      series.push(...answer.map(({ metric, values }) => ({ name: legend(target.legendFormat ?? '', metric), labels: metric, values })))
    }
    data.set(panel.id, series)
  }
  return data
}
