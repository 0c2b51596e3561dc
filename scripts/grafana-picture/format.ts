import type { Panel } from './panel-data.js'

/** Grafana's dark theme's named colours, as a dashboard's overrides and thresholds name them. */
const NAMED: Record<string, string> = {
  green: '#73BF69', blue: '#5794F2', yellow: '#FADE2A', orange: '#FF9830', red: '#F2495C', purple: '#B877D9'
}
/** Grafana's classic palette, in order: the colour of each series that no override gives one. */
const CLASSIC = ['#7EB26D', '#EAB839', '#6ED0E0', '#EF843C', '#E24D42', '#1F78C1', '#BA43A6', '#705DA0', '#508642', '#CCA300']

export function namedColor (name: string): string {
  return NAMED[name] ?? name
}

/** The colour of each series of a panel, by name: an override's fixed colour, else the classic palette's next. */
export function seriesColors (panel: Panel, names: readonly string[]): Map<string, string> {
  const fixed = new Map(panel.fieldConfig.overrides.filter(override => override.matcher.id === 'byName').flatMap(override =>
    override.properties.filter(property => property.id === 'color' && property.value.fixedColor !== undefined)
      .map(property => [override.matcher.options, namedColor(property.value.fixedColor as string)] as const)))
  let next = 0
  return new Map(names.map(name => [name, fixed.get(name) ?? CLASSIC[next++ % CLASSIC.length] as string]))
}

/** The colour a stat's thresholds give a value. */
export function thresholdColor (panel: Panel, value: number): string {
  const steps = panel.fieldConfig.defaults.thresholds?.steps ?? [{ color: 'green', value: null }]
  const step = steps.filter(candidate => candidate.value === null || value >= candidate.value).at(-1)
  return namedColor(step?.color ?? 'green')
}

/** A value in the panel's unit, as Grafana writes it; `decimals` when the panel or the axis asks for a number of them. */
export function formatValue (value: number, unit = 'short', decimals?: number): string {
  if (!Number.isFinite(value)) return 'No data'
  switch (unit) {
    case 'percentunit': return `${trim(value * 100, decimals ?? 1)}%`
    case 'reqps': return `${short(value, decimals)} req/s`
    case 's': return value !== 0 && Math.abs(value) < 1 ? `${trim(value * 1000, decimals ?? 0)} ms` : `${trim(value, decimals ?? 2)} s`
    default: return short(value, decimals)
  }
}

function short (value: number, decimals?: number): string {
  const abs = Math.abs(value)
  if (abs >= 1e6) return `${trim(value / 1e6, decimals ?? 1)} M`
  if (abs >= 1e3) return `${trim(value / 1e3, decimals ?? 1)} K`
  return trim(value, decimals ?? (abs >= 10 || Number.isInteger(value) ? 0 : abs >= 1 ? 1 : 2))
}

function trim (value: number, decimals: number): string {
  return value.toFixed(decimals)
}

/** Round tick values from `min` up to `max` or just past it, about `count` of them. */
export function ticks (min: number, max: number, count: number): number[] {
  const span = max - min || 1
  const rough = span / count
  const power = 10 ** Math.floor(Math.log10(rough))
  const step = ([1, 2, 2.5, 5, 10].find(factor => factor * power >= rough) as number) * power
  const values: number[] = []
  for (let value = Math.floor(min / step) * step; ; value += step) {
    values.push(Number(value.toPrecision(12)))
    if (value >= max - step * 1e-9) return values
  }
}

/** An axis label: the value in the panel's unit, with the decimals that tell ticks `step` apart in the scale it is written in. */
export function axisLabel (value: number, step: number, unit = 'short'): string {
  const scale = unit === 'percentunit' || (unit === 's' && value !== 0 && Math.abs(value) < 1) ? (unit === 's' ? 1000 : 100) : 1
  const decimals = value === 0 ? 0 : (String(Number((step * scale).toPrecision(6))).split('.')[1] ?? '').length
  return formatValue(value, unit, decimals)
}

export function escapeHtml (text: string): string {
  return text.replace(/[&<>"]/g, char => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;' })[char] as string)
}

/** A time of day as the x axis writes it, in UTC. */
export function clockTime (seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(11, 19)
}
