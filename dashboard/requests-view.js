// @ts-check
/// <reference lib="dom" />
/* global HTMLInputElement, HTMLSelectElement, requestAnimationFrame */
// The journal, newest first, kept current by the event stream: the requests received and how they were answered.
import { call } from './api.js'
import { count, el, find } from './dom.js'

/** @typedef {import('../src/control/journal.js').JournalEntry} JournalEntry */
/** @typedef {JournalEntry & { seq: number, dropped?: undefined }} RequestRow */
/** @typedef {{ dropped: number, time: string, seq?: undefined }} DroppedRow */
/** @typedef {RequestRow | DroppedRow} Row */

/** Rows kept in the page, as many as the journal keeps by default. */
const MAX_ROWS = 1000

/**
 * Wires the Requests section; handle(name, data) takes each event of the journal's stream.
 * @param {{ onError: (error: unknown) => void, onFaultSeen: () => void }} options
 */
export function requestsView ({ onError, onFaultSeen }) {
  const body = find('#requests-table tbody')
  const note = find('#requests-note')
  const statusFilter = find('#status-filter', HTMLSelectElement)
  const cameraFilter = find('#request-camera-filter', HTMLInputElement)
  const pauseButton = find('#pause')
  /** @type {Row[]} Newest first; a row is a journal entry with its seq, or a note of requests dropped from the stream. */
  let rows = []
  /** @type {Row[]} */
  let waiting = []
  let paused = false
  let lastSeq = 0
  /** @type {Array<[string, any]> | undefined} Events that came while the journal's earlier requests were being read; undefined once they are in. */
  let early
  let scheduled = false

  function render () {
    scheduled = false
    const status = statusFilter.value
    const camera = cameraFilter.value.trim().toLowerCase()
    const shown = rows.filter(row => row.dropped !== undefined || (matchesStatus(row, status) && (camera === '' || (row.params.id ?? '').toLowerCase().includes(camera))))
    body.replaceChildren(...shown.slice(0, MAX_ROWS).map(row => row.dropped === undefined ? requestRow(row) : droppedRow(row)))
    const requests = rows.filter(row => row.dropped === undefined).length
    const counted = `${count(requests, 'request')}${shown.length < rows.length ? `, ${shown.filter(row => row.dropped === undefined).length} shown` : ''}`
    note.textContent = paused ? `Paused: ${count(waiting.length, 'new request')} waiting. ${counted}.` : `${counted}.`
  }

  function schedule () {
    if (scheduled) return
    scheduled = true
    requestAnimationFrame(render)
  }

  /** @param {Row} row */
  function add (row) {
    if (row.seq !== undefined) {
      // A number lower than the last one: the journal was cleared since.
      if (row.seq <= lastSeq) {
        rows = []
        waiting = []
      }
      lastSeq = row.seq
      if (row.fault !== null && row.fault !== 'prefer') onFaultSeen()
    }
    if (paused) waiting.unshift(row)
    else rows.unshift(row)
    if (waiting.length > MAX_ROWS) waiting.length = MAX_ROWS
    if (rows.length > MAX_ROWS) rows.length = MAX_ROWS
    schedule()
  }

  async function readEarlier () {
    try {
      /** @type {{ requests: JournalEntry[], total: number }} */
      const { requests, total } = await call('GET', '/requests')
      rows = requests.map((entry, index) => ({ ...entry, seq: total - requests.length + index + 1 })).reverse()
      lastSeq = total
      const later = early ?? []
      early = undefined
      // The stream's first events may be in what was just read: those are skipped.
      for (const [name, data] of later) if (name !== 'request' || data.seq > lastSeq) handle(name, data)
      schedule()
    } catch (error) {
      onError(error)
    }
  }

  /**
   * @param {string} name
   * @param {any} data the event's, as its name says
   */
  function handle (name, data) {
    if (early !== undefined && name !== 'ready') {
      early.push([name, data])
      return
    }
    if (name === 'ready') {
      early = []
      readEarlier()
    } else if (name === 'request') {
      add(data)
    } else if (name === 'dropped') {
      add({ dropped: data.dropped, time: new Date().toISOString() })
    }
  }

  pauseButton.addEventListener('click', () => {
    paused = !paused
    pauseButton.setAttribute('aria-pressed', String(paused))
    pauseButton.textContent = paused ? 'Resume' : 'Pause'
    if (!paused) {
      rows = [...waiting, ...rows].slice(0, MAX_ROWS)
      waiting = []
    }
    render()
  })
  statusFilter.addEventListener('change', render)
  cameraFilter.addEventListener('input', render)
  /** Empties the rows, after the journal was emptied. */
  function clear () {
    rows = []
    waiting = []
    lastSeq = 0
    render()
  }

  find('#clear-requests').addEventListener('click', async () => {
    try {
      await call('DELETE', '/requests')
      clear()
    } catch (error) {
      onError(error)
    }
  })

  return { handle, clear }
}

/**
 * @param {RequestRow} entry
 * @param {string} wanted
 */
function matchesStatus (entry, wanted) {
  if (wanted === '') return true
  if (wanted === 'dropped') return entry.status === null
  return entry.status !== null && String(entry.status).startsWith(wanted)
}

/** @param {number | null} status */
function statusClass (status) {
  return status === null ? 'status-dropped' : `status-${String(status)[0]}xx`
}

/** @param {RequestRow} entry */
function requestRow (entry) {
  const time = new Date(entry.time)
  return el('tr', {},
    el('td', { 'data-label': 'Time' }, el('time', { datetime: entry.time }, time.toLocaleTimeString([], { hour12: false }) + '.' + String(time.getMilliseconds()).padStart(3, '0'))),
    el('td', { 'data-label': 'Method' }, entry.method),
    el('td', { 'data-label': 'Path', class: 'path' }, el('code', { title: entry.url }, entry.path)),
    el('td', { 'data-label': 'Status' }, el('span', { class: `status ${statusClass(entry.status)}` }, entry.status === null ? 'dropped' : String(entry.status))),
    el('td', { 'data-label': 'Camera', class: 'id' }, entry.params.id === undefined ? '—' : el('code', {}, entry.params.id)),
    el('td', { 'data-label': 'Duration', class: 'number' }, `${entry.durationMs.toFixed(1)} ms`),
    el('td', { 'data-label': 'Fault', class: 'id' }, entry.fault === null ? '—' : el('code', {}, entry.fault)))
}

/** @param {DroppedRow} row */
function droppedRow ({ dropped }) {
  return el('tr', { class: 'dropped-note' }, el('td', { colspan: 7 }, `${count(dropped, 'request')} not shown here: the page fell behind the stream.`))
}
