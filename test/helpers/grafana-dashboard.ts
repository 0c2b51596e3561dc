import type { Sample } from './prometheus-text.js'
import { queryParts, type QueryParts } from './promql.js'

/** The parts of a Grafana dashboard's JSON model these checks read. */
export interface Dashboard {
  __inputs?: Array<{ name: string, type: string, pluginId: string }>
  panels?: Panel[]
  templating?: { list?: Variable[] }
}

export interface Panel {
  id: number
  title: string
  type: string
  datasource?: { type?: string, uid?: string }
  gridPos: { x: number, y: number, w: number, h: number }
  targets?: Array<{ expr?: string, legendFormat?: string, datasource?: { uid?: string } }>
}

export interface Variable {
  name: string
  type: string
  query?: string | { query?: string }
  datasource?: { uid?: string }
}

/** The import's datasource input, and the uid every panel names it by. */
const INPUT = 'DS_PROMETHEUS'
export const DATASOURCE = `\${${INPUT}}`
/** The variable every panel filters by, and the matcher that filters a selector by it. */
const VARIABLE = 'device'
const FILTER = { label: 'device', op: '=~', value: '$device' }
const GRID_COLUMNS = 24

/**
 * What is wrong with a dashboard over the metrics a scrape served: a panel without a query, a metric the scrape has
 * no series of, a label that metric does not have (in a matcher, a `by`, or a legend), a selector the `device`
 * variable does not filter, a datasource other than the import's input, panels that overlap. Empty when it is right.
 */
export function dashboardProblems (dashboard: Dashboard, samples: readonly Sample[]): string[] {
  const labels = labelsByMetric(samples)
  const problems: string[] = []
  if (!(dashboard.__inputs ?? []).some(input => input.name === INPUT && input.type === 'datasource' && input.pluginId === 'prometheus')) {
    problems.push(`no Prometheus datasource input named ${DATASOURCE}`)
  }
  problems.push(...variableProblems(dashboard.templating?.list ?? [], labels))
  const panels = dashboard.panels ?? []
  if (panels.length === 0) problems.push('no panels')
  for (const panel of panels) problems.push(...panelProblems(panel, labels).map(problem => `panel "${panel.title}": ${problem}`))
  problems.push(...layoutProblems(panels))
  return problems
}

function labelsByMetric (samples: readonly Sample[]): Map<string, Set<string>> {
  const labels = new Map<string, Set<string>>()
  for (const sample of samples) {
    const known = labels.get(sample.name) ?? new Set()
    for (const label of Object.keys(sample.labels)) known.add(label)
    labels.set(sample.name, known)
  }
  return labels
}

function variableProblems (variables: readonly Variable[], labels: ReadonlyMap<string, Set<string>>): string[] {
  const variable = variables.find(candidate => candidate.name === VARIABLE)
  if (variable === undefined) return [`no template variable ${VARIABLE}`]
  const query = typeof variable.query === 'string' ? variable.query : variable.query?.query ?? ''
  const match = /^label_values\(\s*([a-zA-Z_:][\w:]*)\s*,\s*(\w+)\s*\)$/.exec(query)
  if (variable.type !== 'query' || match === null) return [`the variable ${VARIABLE} is not a label_values(metric, label) query: ${JSON.stringify(query)}`]
  const [, metric, label] = match as unknown as [string, string, string]
  const problems = variable.datasource?.uid === DATASOURCE ? [] : [`the variable ${VARIABLE} does not query ${DATASOURCE}`]
  return [...problems, ...selectorProblems(metric, [label], labels).map(problem => `the variable ${VARIABLE}: ${problem}`)]
}

function panelProblems (panel: Panel, labels: ReadonlyMap<string, Set<string>>): string[] {
  const targets = panel.targets ?? []
  if (targets.length === 0 || targets.some(target => (target.expr ?? '').trim() === '')) return ['a target without a query']
  const problems = panel.datasource?.uid === DATASOURCE ? [] : [`its datasource is not ${DATASOURCE}`]
  for (const { expr = '', legendFormat = '', datasource } of targets) {
    if (datasource !== undefined && datasource.uid !== DATASOURCE) problems.push(`a target's datasource is not ${DATASOURCE}`)
    let parts: QueryParts
    try {
      parts = queryParts(expr)
    } catch (error) {
      problems.push((error as Error).message)
      continue
    }
    problems.push(...queryProblems(expr, parts, labels), ...legendProblems(legendFormat, parts, labels))
  }
  return problems
}

function queryProblems (expr: string, { selectors, grouping }: QueryParts, labels: ReadonlyMap<string, Set<string>>): string[] {
  if (selectors.length === 0) return [`${expr}: selects no metric`]
  const problems: string[] = []
  for (const { metric, matchers } of selectors) {
    problems.push(...selectorProblems(metric, [...matchers.map(matcher => matcher.label), ...grouping], labels).map(problem => `${expr}: ${problem}`))
    if (!matchers.some(matcher => matcher.label === FILTER.label && matcher.op === FILTER.op && matcher.value === FILTER.value)) {
      problems.push(`${expr}: ${metric} is not filtered by ${FILTER.label}${FILTER.op}"${FILTER.value}"`)
    }
  }
  return problems
}

function selectorProblems (metric: string, used: readonly string[], labels: ReadonlyMap<string, Set<string>>): string[] {
  const known = labels.get(metric)
  if (known === undefined) return [`${metric} is not a metric /__admin/metrics serves`]
  return [...new Set(used)].filter(label => !known.has(label)).map(label => `${metric} has no label ${label}`)
}

/** A legend's `{{label}}` is a label the query's result keeps: its `by` labels, none after a bare sum, else the metric's. */
function legendProblems (legend: string, { selectors, grouping, dropsLabels }: QueryParts, labels: ReadonlyMap<string, Set<string>>): string[] {
  const kept = grouping.length > 0 ? new Set(grouping) : dropsLabels ? new Set() : new Set(selectors.flatMap(({ metric }) => [...labels.get(metric) ?? []]))
  return [...legend.matchAll(/\{\{\s*(\w+)\s*\}\}/g)].map(match => match[1] as string).filter(label => !kept.has(label))
    .map(label => `the legend names {{${label}}}, a label the query's result does not have`)
}

function layoutProblems (panels: readonly Panel[]): string[] {
  const problems: string[] = []
  const ids = panels.map(panel => panel.id)
  if (new Set(ids).size !== ids.length) problems.push('two panels share an id')
  panels.forEach((panel, index) => {
    const { x, y, w, h } = panel.gridPos
    if (x < 0 || y < 0 || w < 1 || h < 1 || x + w > GRID_COLUMNS) problems.push(`panel "${panel.title}" is outside the grid's ${GRID_COLUMNS} columns`)
    for (const other of panels.slice(index + 1)) {
      const b = other.gridPos
      if (x < b.x + b.w && b.x < x + w && y < b.y + b.h && b.y < y + h) problems.push(`panels "${panel.title}" and "${other.title}" overlap`)
    }
  })
  return problems
}
