// @ts-check
/// <reference lib="dom" />
/* global HTMLFormElement */
// The faults in force, kept current, and a form to inject the common ones.
import { call, Refusal } from './api.js'
import { el, find, showProblems } from './dom.js'
import { DELAY_TEXT } from './server-values.js'

/** @typedef {import('../src/control/faults/fault-spec.js').Fault} Fault */
/** @typedef {import('../src/control/faults/fault-spec.js').FaultSpec} FaultSpec */

/**
 * The fields of the fault form, by name.
 * @typedef {{ answer: HTMLSelectElement, status: HTMLInputElement, delay: HTMLInputElement, route: HTMLSelectElement, camera: HTMLInputElement, times: HTMLInputElement }} FaultFields
 */

/**
 * Wires the Faults section; load() reads the faults in force again.
 * @param {{ onError: (error: unknown) => void, onReset: () => Promise<unknown> }} options
 */
export function faultsView ({ onError, onReset }) {
  const list = find('#fault-list')
  const form = find('#fault-form', HTMLFormElement)
  const problems = find('#fault-problems')
  const fields = /** @type {FaultFields} */ (/** @type {unknown} */ (form.elements))
  const answer = fields.answer
  const status = fields.status

  /**
   * @param {() => Promise<unknown>} action
   * @param {string} [heading]
   */
  async function act (action, heading) {
    showProblems(problems)
    try {
      await action()
    } catch (error) {
      if (error instanceof Refusal) showProblems(problems, heading, error.problems)
      else onError(error)
    }
  }

  async function load () {
    /** @type {Fault[]} */
    const faults = await call('GET', '/faults')
    list.replaceChildren(...(faults.length === 0
      ? [el('li', { class: 'muted' }, 'No fault is in force: every request gets its usual answer.')]
      : faults.map(fault => el('li', { class: 'fault', 'data-fault': fault.id },
        el('span', {}, el('code', {}, fault.id), ' ', el('strong', {}, describeAnswer(fault)), ` for ${describeScope(fault)}`,
          el('span', { class: 'remaining' }, fault.remaining === null ? ' · until cleared' : ` · ${fault.remaining} more ${fault.remaining === 1 ? 'request' : 'requests'}`)),
        el('button', { type: 'button', 'aria-label': `Clear ${fault.id}`, 'data-clear': fault.id }, 'Clear')))))
  }

  list.addEventListener('click', event => {
    const id = /** @type {HTMLElement} */ (event.target).closest('[data-clear]')?.getAttribute('data-clear') ?? undefined
    if (id !== undefined) act(async () => { await call('DELETE', `/faults/${encodeURIComponent(id)}`); await load() })
  })
  find('#clear-faults').addEventListener('click', () => act(async () => { await call('DELETE', '/faults'); await load() }))
  find('#reset-all').addEventListener('click', () => act(async () => {
    await call('POST', '/reset')
    await load()
    await onReset()
  }))
  const syncStatus = () => { status.disabled = answer.value !== 'status' }
  form.addEventListener('change', syncStatus)
  syncStatus()
  form.addEventListener('submit', event => {
    event.preventDefault()
    act(async () => {
      const spec = specOf(fields)
      await call('POST', '/faults', spec)
      await load()
    }, 'The fault was not injected:')
  })

  return { load }
}

/**
 * The fault spec the form describes; the server checks it and names each problem.
 * @param {FaultFields} fields
 */
function specOf (fields) {
  /** @type {Record<string, unknown>} */
  const spec = {}
  const kind = fields.answer.value
  if (kind === 'status') spec.status = numberOr(fields.status.value)
  if (kind === 'drop') spec.drop = true
  if (kind === 'malformed') spec.malformed = true
  const delay = fields.delay.value.trim()
  if (delay !== '') spec.delay = delayOf(delay)
  if (fields.route.value !== '') spec.route = fields.route.value
  if (fields.camera.value.trim() !== '') spec.camera = fields.camera.value.trim()
  if (fields.times.value.trim() !== '') spec.times = numberOr(fields.times.value)
  return spec
}

/**
 * "800" is 800 ms, "100-800" a range, read as the server reads --latency; any other text goes as it is, for the
 * server to refuse by name.
 * @param {string} text
 */
function delayOf (text) {
  const range = DELAY_TEXT.exec(text)
  if (range === null) return numberOr(text)
  const min = Number(range[1])
  return range[2] === undefined ? min : { min, max: Number(range[2]) }
}

/**
 * A number when the text is a decimal one (not "0x10" or "1e3"); the text as it is otherwise, so the server says what is wrong with it.
 * @param {string} text
 */
function numberOr (text) {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text
}

/** @param {Fault} fault */
function describeAnswer (fault) {
  const delay = fault.delay === undefined
    ? ''
    : typeof fault.delay === 'number' ? `${fault.delay} ms delay` : `${fault.delay.min}–${fault.delay.max} ms delay`
  const answer = fault.status !== undefined
    ? `status ${fault.status}`
    : fault.drop === true ? 'dropped connection' : fault.malformed === true ? 'malformed body' : ''
  return [delay, answer].filter(Boolean).join(', then ')
}

/** @param {Fault} fault */
function describeScope (fault) {
  const route = fault.route === undefined ? 'every API request' : `${fault.route} requests`
  return fault.camera === undefined ? route : `${route} of camera ${fault.camera}`
}
