import { axisLabel, clockTime, escapeHtml, seriesColors, ticks } from './format.js'
import type { NamedSeries, Panel, Window } from './panel-data.js'

const AXIS_WIDTH = 58
const AXIS_HEIGHT = 20
const LEGEND_ROW = 20
const TEXT = 'rgba(204, 204, 220, 0.65)'
const GRID = 'rgba(204, 204, 220, 0.1)'

/** The points of a series at every step of the window, NaN where it has no value (Grafana leaves a gap there). */
function onSteps (series: NamedSeries, window: Window): number[] {
  const byTime = new Map(series.values.map(([time, value]) => [Math.round(time), value]))
  const points: number[] = []
  for (let time = window.start; time <= window.end + 1e-6; time += window.step) points.push(byTime.get(Math.round(time)) ?? NaN)
  return points
}

/** A time series panel's body: its lines (stacked when the panel stacks), axes and legend, as SVG. */
export function timeSeriesSvg (panel: Panel, series: readonly NamedSeries[], window: Window, width: number, height: number): string {
  const sorted = [...series].sort((a, b) => a.name.localeCompare(b.name, 'en', { numeric: true }))
  const colors = seriesColors(panel, sorted.map(each => each.name))
  const stacked = panel.fieldConfig.defaults.custom?.stacking?.mode === 'normal'
  const raw = sorted.map(each => onSteps(each, window))
  const { base, tops } = stack(raw, stacked)
  const defaults = panel.fieldConfig.defaults
  const finite = tops.flat().filter(Number.isFinite)
  const legendRows = Math.ceil(sorted.length / Math.max(1, Math.floor(width / 130)))
  const plot = { left: AXIS_WIDTH, top: 6, width: width - AXIS_WIDTH - 8, height: height - AXIS_HEIGHT - 6 - legendRows * LEGEND_ROW }
  const yTicks = ticks(defaults.min ?? Math.min(0, ...finite), defaults.max ?? Math.max(...finite, 0), Math.max(2, Math.floor(plot.height / 40)))
  const [low, high] = [yTicks[0] as number, yTicks.at(-1) as number]
  const x = (step: number) => plot.left + step / Math.max(1, (raw[0]?.length ?? 1) - 1) * plot.width
  const y = (value: number) => plot.top + plot.height - (value - low) / (high - low || 1) * plot.height
  const step = (yTicks[1] ?? high) - low
  const parts: string[] = yTicks.map(value => `<line x1="${plot.left}" x2="${plot.left + plot.width}" y1="${y(value)}" y2="${y(value)}" stroke="${GRID}"/>` +
    `<text x="${plot.left - 6}" y="${y(value) + 4}" text-anchor="end" fill="${TEXT}">${escapeHtml(axisLabel(value, step, defaults.unit))}</text>`)
  for (const time of timeTicks(window, plot.width)) {
    const px = plot.left + (time - window.start) / (window.end - window.start) * plot.width
    // A label that would run past the panel's edge is left out, as Grafana leaves it out.
    const label = px > plot.left + plot.width - 26 ? '' : `<text x="${px}" y="${plot.top + plot.height + 15}" text-anchor="middle" fill="${TEXT}">${clockTime(time)}</text>`
    parts.push(`<line x1="${px}" x2="${px}" y1="${plot.top}" y2="${plot.top + plot.height}" stroke="${GRID}"/>${label}`)
  }
  const opacity = (defaults.custom?.fillOpacity ?? 10) / 100
  tops.forEach((points, index) => {
    const color = colors.get(sorted[index]?.name as string) as string
    for (const run of runs(points)) {
      const line = run.map(step => `${x(step).toFixed(1)},${y(points[step] as number).toFixed(1)}`)
      const floor = run.map(step => `${x(step).toFixed(1)},${y(Math.max(low, (base[index] as number[])[step] as number)).toFixed(1)}`).reverse()
      parts.push(`<polygon points="${[...line, ...floor].join(' ')}" fill="${color}" fill-opacity="${opacity}"/>`,
        `<polyline points="${line.join(' ')}" fill="none" stroke="${color}" stroke-width="1.5"/>`)
    }
  })
  const legendY = plot.top + plot.height + AXIS_HEIGHT + 12
  const perRow = Math.max(1, Math.floor(width / 130))
  sorted.forEach((each, index) => {
    const lx = plot.left + (index % perRow) * 130
    const ly = legendY + Math.floor(index / perRow) * LEGEND_ROW
    parts.push(`<rect x="${lx}" y="${ly - 3}" width="14" height="4" rx="1" fill="${colors.get(each.name) as string}"/>` +
      `<text x="${lx + 20}" y="${ly + 2}" fill="#ccccdc">${escapeHtml(each.name)}</text>`)
  })
  return `<svg width="${width}" height="${height}" font-size="11">${parts.join('')}</svg>`
}

/** Each series' floor and top at every step: on the series before it when stacked, else on zero; NaN stays a gap. */
function stack (raw: readonly number[][], stacked: boolean): { base: number[][], tops: number[][] } {
  const base: number[][] = []
  const tops: number[][] = []
  let level = raw[0]?.map(() => 0) ?? []
  for (const points of raw) {
    const below = stacked ? level : points.map(() => 0)
    const top = points.map((value, step) => Number.isFinite(value) ? (below[step] as number) + value : NaN)
    base.push(below)
    tops.push(top)
    if (stacked) level = top.map((value, step) => Number.isFinite(value) ? value : below[step] as number)
  }
  return { base, tops }
}

/** The steps of each stretch without gaps. */
function runs (points: readonly number[]): number[][] {
  const found: number[][] = []
  let current: number[] = []
  points.forEach((value, step) => {
    if (Number.isFinite(value)) current.push(step)
    else if (current.length > 0) { found.push(current); current = [] }
  })
  if (current.length > 0) found.push(current)
  return found
}

/** Round times of day, as many as fit a label every 64 px. */
function timeTicks ({ start, end }: Window, width: number): number[] {
  const every = [15, 30, 60, 120, 300, 600].find(seconds => (end - start) / seconds * 64 <= width) ?? 1800
  const times: number[] = []
  for (let time = Math.ceil(start / every) * every; time <= end; time += every) times.push(time)
  return times
}

/** A stat's sparkline: the series as a filled area across the panel's foot. */
export function sparklineSvg (values: readonly number[], color: string, width: number, height: number): string {
  const finite = values.filter(Number.isFinite)
  if (finite.length < 2) return ''
  const max = Math.max(...finite, 0) || 1
  const x = (index: number) => index / (values.length - 1) * width
  const y = (value: number) => height - value / max * (height - 2)
  const line = values.map((value, index) => Number.isFinite(value) ? `${x(index).toFixed(1)},${y(value).toFixed(1)}` : '').filter(Boolean)
  return `<svg class="sparkline" width="${width}" height="${height}"><polygon points="${line.join(' ')} ${width},${height} 0,${height}" fill="${color}" fill-opacity="0.18"/>` +
    `<polyline points="${line.join(' ')}" fill="none" stroke="${color}" stroke-width="1.5"/></svg>`
}
