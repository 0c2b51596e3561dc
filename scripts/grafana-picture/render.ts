import { sparklineSvg, timeSeriesSvg } from './charts.js'
import { clockTime, escapeHtml, formatValue, thresholdColor } from './format.js'
import type { Dashboard, NamedSeries, Panel, Window } from './panel-data.js'

/** The page's width, and Grafana's grid: 24 columns, rows 30 px high, 8 px between panels. */
export const PAGE_WIDTH = 1440
const MARGIN = 16
const GAP = 8
const ROW_HEIGHT = 30
const HEADER_HEIGHT = 88
const PANEL_TITLE = 32
const COLUMN = (PAGE_WIDTH - 2 * MARGIN - 23 * GAP) / 24

const STYLE = `
  body { margin: 0; background: #111217; color: #ccccdc; font: 13px Inter, "Helvetica Neue", Arial, sans-serif; }
  header { height: ${HEADER_HEIGHT}px; padding: 0 ${MARGIN}px; box-sizing: border-box; }
  .bar { display: flex; justify-content: space-between; align-items: center; height: 44px; border-bottom: 1px solid #2c3235; }
  .crumbs { font-size: 15px; } .crumbs span { color: rgba(204, 204, 220, 0.65); }
  .range { border: 1px solid #2c3235; border-radius: 2px; padding: 4px 10px; }
  .variables { display: flex; align-items: center; height: 44px; gap: 0; }
  .variables label { background: #22252b; border: 1px solid #2c3235; padding: 4px 8px; color: #6e9fff; }
  .variables .value { border: 1px solid #2c3235; border-left: 0; padding: 4px 8px; min-width: 60px; }
  .panel { position: absolute; background: #181b1f; border: 1px solid #2c3235; border-radius: 2px; box-sizing: border-box; overflow: hidden; }
  .panel h2 { margin: 0; height: ${PANEL_TITLE}px; line-height: ${PANEL_TITLE}px; padding: 0 8px; font-size: 14px; font-weight: 500; }
  .stat { position: absolute; left: 0; right: 0; top: ${PANEL_TITLE}px; bottom: 0; }
  .stat .value { position: relative; z-index: 1; text-align: center; font-size: 40px; font-weight: 500; line-height: 64px; }
  .sparkline { position: absolute; left: 0; bottom: 0; }
  .bars { padding: 2px 10px; }
  .gauge { display: grid; grid-template-columns: 70px 1fr 84px; align-items: center; gap: 8px; }
  .gauge .track { height: 60%; background: rgba(204, 204, 220, 0.07); }
  .gauge .fill { height: 100%; background: linear-gradient(90deg, #5794F2, #B877D9); }
  .gauge .number { text-align: right; font-weight: 500; }
  table { width: 100%; border-collapse: collapse; }
  th { text-align: left; font-weight: 500; color: #6e9fff; padding: 6px 10px; border-bottom: 1px solid #2c3235; }
  td { padding: 5px 10px; border-bottom: 1px solid #22252b; }
  .empty { color: rgba(204, 204, 220, 0.65); text-align: center; padding-top: 40px; }
  footer { position: absolute; left: ${MARGIN}px; right: ${MARGIN}px; color: rgba(204, 204, 220, 0.65); font-size: 12px; }
`

/** Where a panel's gridPos puts it on the page, in pixels. */
function box ({ x, y, w, h }: Panel['gridPos']) {
  return { left: MARGIN + x * (COLUMN + GAP), top: HEADER_HEIGHT + y * (ROW_HEIGHT + GAP), width: w * COLUMN + (w - 1) * GAP, height: h * ROW_HEIGHT + (h - 1) * GAP }
}

export interface Drawn {
  html: string
  height: number
}

/** The dashboard's panels, where its layout puts them, drawn from their series; `note` says what the picture is. */
export function renderDashboard (dashboard: Dashboard, data: ReadonlyMap<number, NamedSeries[]>, window: Window, note: string): Drawn {
  const bottom = Math.max(...dashboard.panels.map(panel => box(panel.gridPos).top + box(panel.gridPos).height))
  const variables = dashboard.templating.list.map(variable => `<label>${escapeHtml(variable.label ?? variable.name)}</label><span class="value">All</span>`).join('')
  const header = `<header><div class="bar"><div class="crumbs"><span>Home › Dashboards › </span>${escapeHtml(dashboard.title)}</div>` +
    `<div class="range">${clockTime(window.start)} to ${clockTime(window.end)} UTC</div></div><div class="variables">${variables}</div></header>`
  const panels = dashboard.panels.map(panel => {
    const { left, top, width, height } = box(panel.gridPos)
    const series = data.get(panel.id) ?? []
    return `<section class="panel" style="left:${left}px;top:${top}px;width:${width}px;height:${height}px"><h2>${escapeHtml(panel.title)}</h2>` +
      `${body(panel, series, window, width - 2, height - PANEL_TITLE - 2)}</section>`
  }).join('')
  const height = bottom + 40
  return {
    html: `<!doctype html><html><head><meta charset="utf-8"><style>${STYLE}</style></head><body>${header}${panels}` +
      `<footer style="top:${bottom + 12}px">${escapeHtml(note)}</footer></body></html>`,
    height
  }
}

function body (panel: Panel, series: readonly NamedSeries[], window: Window, width: number, height: number): string {
  if (series.length === 0) return '<div class="empty">No data</div>'
  switch (panel.type) {
    case 'stat': return stat(panel, series[0] as NamedSeries, width, height)
    case 'bargauge': return barGauge(panel, series, height)
    case 'table': return table(panel, series)
    default: return timeSeriesSvg(panel, series, window, width, height)
  }
}

function stat (panel: Panel, series: NamedSeries, width: number, height: number): string {
  const values = series.values.map(([, value]) => value)
  const last = values.filter(Number.isFinite).at(-1) ?? NaN
  const color = thresholdColor(panel, last)
  const { unit, decimals } = panel.fieldConfig.defaults
  return `<div class="stat"><div class="value" style="color:${color}">${escapeHtml(formatValue(last, unit, decimals))}</div>` +
    `${sparklineSvg(values, color, width, Math.round(height * 0.55))}</div>`
}

/** Horizontal bars, the largest first, sharing the panel's height as Grafana's bar gauge does. */
function barGauge (panel: Panel, series: readonly NamedSeries[], height: number): string {
  const rows = series.map(each => ({ name: each.name, value: each.values[0]?.[1] ?? 0 })).sort((a, b) => b.value - a.value)
  const rowHeight = Math.min(40, Math.floor((height - 8) / rows.length))
  const max = Math.max(...rows.map(row => row.value), 0) || 1
  const { unit, decimals } = panel.fieldConfig.defaults
  return `<div class="bars">${rows.map(row => `<div class="gauge" style="height:${rowHeight}px"><span>${escapeHtml(row.name)}</span>` +
    `<div class="track"><div class="fill" style="width:${(row.value / max * 100).toFixed(1)}%"></div></div>` +
    `<span class="number" style="color:#B877D9">${escapeHtml(formatValue(row.value, unit, decimals))}</span></div>`).join('')}</div>`
}

/** A table of the series' labels, one row each, in the columns the panel's organize transformation leaves and orders. */
function table (panel: Panel, series: readonly NamedSeries[]): string {
  const { excludeByName = {}, indexByName = {} } = panel.transformations?.find(transformation => transformation.id === 'organize')?.options ?? {}
  const place = (name: string) => indexByName[name] ?? Number.MAX_SAFE_INTEGER
  const columns = [...new Set(series.flatMap(each => Object.keys(each.labels)))].filter(name => excludeByName[name] !== true)
    .sort((a, b) => place(a) - place(b) || a.localeCompare(b))
  const rows = [...series].sort((a, b) => (a.labels.device ?? '').localeCompare(b.labels.device ?? ''))
  return `<table><tr>${columns.map(name => `<th>${escapeHtml(name)}</th>`).join('')}</tr>` +
    rows.map(each => `<tr>${columns.map(name => `<td>${escapeHtml(each.labels[name] ?? '')}</td>`).join('')}</tr>`).join('') + '</table>'
}
