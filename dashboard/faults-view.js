/* global document */
// The faults in force, kept current, and a form to inject the common ones.
import { call, Refusal } from './api.js'
import { el, showProblems } from './dom.js'

/** Wires the Faults section; load() reads the faults in force again. */
export function faultsView ({ onError, onReset }) {
  const list = document.querySelector('#fault-list')
  const form = document.querySelector('#fault-form')
  const problems = document.querySelector('#fault-problems')
  const answer = form.elements.answer
  const status = form.elements.status

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
    const faults = await call('GET', '/faults')
    list.replaceChildren(...(faults.length === 0
      ? [el('li', { class: 'muted' }, 'No fault is in force: every request gets its usual answer.')]
      : faults.map(fault => el('li', { class: 'fault', 'data-fault': fault.id },
        el('span', {}, el('code', {}, fault.id), ' ', el('strong', {}, describeAnswer(fault)), ` for ${describeScope(fault)}`,
          el('span', { class: 'remaining' }, fault.remaining === null ? ' · until cleared' : ` · ${fault.remaining} more ${fault.remaining === 1 ? 'request' : 'requests'}`)),
        el('button', { type: 'button', 'aria-label': `Clear ${fault.id}`, 'data-clear': fault.id }, 'Clear')))))
  }

  list.addEventListener('click', event => {
    const id = event.target.closest('[data-clear]')?.dataset.clear
    if (id !== undefined) act(async () => { await call('DELETE', `/faults/${encodeURIComponent(id)}`); await load() })
  })
  document.querySelector('#clear-faults').addEventListener('click', () => act(async () => { await call('DELETE', '/faults'); await load() }))
  document.querySelector('#reset-all').addEventListener('click', () => act(async () => {
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
      const spec = specOf(form.elements)
      await call('POST', '/faults', spec)
      await load()
    }, 'The fault was not injected:')
  })

  return { load }
}

/** The fault spec the form describes; the server checks it and names each problem. */
function specOf (fields) {
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

/** "800" is 800 ms, "100-800" a range; any other text goes as it is, for the server to refuse by name. */
function delayOf (text) {
  const range = /^(\d+(?:\.\d+)?)\s*[-–]\s*(\d+(?:\.\d+)?)$/.exec(text)
  return range === null ? numberOr(text) : { min: Number(range[1]), max: Number(range[2]) }
}

// A number when the text is a decimal one (not "0x10" or "1e3"); the text as it is otherwise, so the server says what is wrong with it.
function numberOr (text) {
  return /^\s*-?\d+(\.\d+)?\s*$/.test(text) ? Number(text) : text
}

function describeAnswer (fault) {
  const delay = fault.delay === undefined
    ? ''
    : typeof fault.delay === 'number' ? `${fault.delay} ms delay` : `${fault.delay.min}–${fault.delay.max} ms delay`
  const answer = fault.status !== undefined
    ? `status ${fault.status}`
    : fault.drop === true ? 'dropped connection' : fault.malformed === true ? 'malformed body' : ''
  return [delay, answer].filter(Boolean).join(', then ')
}

function describeScope (fault) {
  const route = fault.route === undefined ? 'every API request' : `${fault.route} requests`
  return fault.camera === undefined ? route : `${route} of camera ${fault.camera}`
}
