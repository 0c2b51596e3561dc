// @ts-check
/// <reference lib="dom" />
// A device's health: its state now, buttons that change it, and its timeline (what comes next, what changed lately),
// kept current by the health and data events of the journal's stream.
import { call, Refusal } from './api.js'
import { el, find, showProblems } from './dom.js'

/** @typedef {import('../src/health/device-health.js').HealthReport} HealthReport */
/** @typedef {import('../src/health/health-states.js').HealthSpec} HealthSpec */
/** @typedef {import('../src/control/device-events.js').DeviceEvent} DeviceEvent */
/** @typedef {{ label: string, health: HealthSpec }} HealthAction */

/** Recent changes shown, newest first. */
const RECENT_SHOWN = 20
/** How long a single mock-nvr stays away when told to: its admin API, and this page, share the port that goes. */
const AWAY_MS = 10_000

/**
 * The buttons. A single mock-nvr's offline needs a `for` (the port comes back by itself); unreachable never holds
 * the admin API, and a fleet device's admin API is on the control address, so those stay until brought back.
 * @param {boolean} sharesPort
 * @returns {HealthAction[]}
 */
function actionsFor (sharesPort) {
  return [
    sharesPort
      ? { label: `Offline for ${AWAY_MS / 1000} s`, health: { state: 'offline', for: AWAY_MS } }
      : { label: 'Offline', health: { state: 'offline' } },
    { label: 'Unreachable', health: { state: 'unreachable' } },
    { label: 'Reboot', health: { state: 'rebooting', down: 5000, starting: 5000 } },
    { label: 'Slow (1 s an answer)', health: { state: 'slow', latency: 1000 } },
    { label: 'Online', health: { state: 'online' } }
  ]
}

/**
 * Wires the Health section; handle(name, data) takes each event of the journal's stream.
 * @param {{ onError: (error: unknown) => void, sharesPort: boolean }} options
 */
export function healthView ({ onError, sharesPort }) {
  const section = find('#health')
  const link = find('.top nav a[href="#health"]')
  const state = find('#health-state')
  const until = find('#health-until')
  const actions = find('#health-actions')
  const problems = find('#health-problems')
  const next = find('#health-next')
  const recent = find('#health-recent')
  const recentNone = find('#health-recent-none')
  const nextNone = find('#health-next-none')
  /** @type {DeviceEvent[]} */
  let recentEvents = []

  for (const { label, health } of actionsFor(sharesPort)) {
    const button = el('button', { type: 'button', 'data-health': health.state }, label)
    button.addEventListener('click', () => set(health))
    actions.append(button)
  }

  /** @param {HealthSpec} health */
  function set (health) {
    showProblems(problems, '')
    call('PUT', '/health', health).then(show, error => {
      if (error instanceof Refusal) showProblems(problems, 'The health was not changed:', error.problems)
      else onError(error)
    })
  }

  /** @param {HealthReport} report */
  function show (report) {
    const text = stateText(report)
    state.dataset.state = report.state
    state.textContent = report.reason === undefined ? text : `${text}: ${report.reason}; it tries again at its next change`
    until.hidden = report.until === undefined
    if (report.until !== undefined) until.textContent = `Until ${clockTime(report.until)}: then it comes back by itself${report.state === 'online' ? '' : ' (to its schedule, online without one)'}.`
    showList(next, nextNone, report.next.map(step => el('li', {}, el('time', { datetime: step.at }, clockTime(step.at)), ' ', stepText(step))))
  }

  function showRecent () {
    showList(recent, recentNone, recentEvents.map(event => el('li', { 'data-kind': event.kind }, el('time', { datetime: event.time }, clockTime(event.time)), ' ', eventText(event))))
  }

  async function load () {
    // No link to a panel that is not shown: none until it is.
    link.hidden = section.hidden
    try {
      const [report, events] = await Promise.all([call('GET', '/health'), call('GET', '/events')])
      section.hidden = false
      recentEvents = events.slice(-RECENT_SHOWN).reverse()
      show(report)
      showRecent()
    } catch (error) {
      // A proxy serves the target's answers, whose health is its own: no panel.
      if (error instanceof Refusal && error.status === 404) section.hidden = true
      else onError(error)
    }
    link.hidden = section.hidden
  }

  /**
   * @param {string} name
   * @param {DeviceEvent} data
   */
  function handle (name, data) {
    if (name !== 'health' && name !== 'data') return
    recentEvents = [data, ...recentEvents].slice(0, RECENT_SHOWN)
    showRecent()
    if (name === 'health') call('GET', '/health').then(show, onError)
  }

  return { load, handle }
}

/**
 * A list of what there is, or the sentence that says there is nothing: never a numbered list of one "nothing".
 * @param {HTMLElement} list
 * @param {HTMLElement} none
 * @param {HTMLElement[]} items
 */
function showList (list, none, items) {
  list.replaceChildren(...items)
  list.hidden = items.length === 0
  none.hidden = items.length > 0
}

/** @param {{ state: string, phase?: string | undefined }} health */
function stateText ({ state, phase }) {
  return phase === undefined ? state : `${state} (${phase})`
}

/** @param {HealthSpec} step */
function stepText (step) {
  const details = []
  if (step.for !== undefined) details.push(`for ${seconds(step.for)}`)
  if (step.down !== undefined) details.push(`down ${seconds(step.down)}, starting ${seconds(step.starting ?? 0)}`)
  if (step.latency !== undefined) details.push(`${step.latency} ms an answer`)
  return details.length === 0 ? step.state : `${step.state} (${details.join(', ')})`
}

/** @param {DeviceEvent} event */
function eventText (event) {
  if (event.kind === 'data') return `data: line ${event.line} of camera ${event.camera} ${event.edit}`
  const cause = event.cause === 'port-taken' ? `port ${event.port} taken` : event.cause
  return `health: ${stateText(event)}${cause === undefined ? '' : ` (${cause})`}`
}

/** @param {number} ms */
function seconds (ms) {
  return ms % 1000 === 0 ? `${ms / 1000} s` : `${ms} ms`
}

/** @param {string} iso */
function clockTime (iso) {
  return new Date(iso).toLocaleTimeString([], { hour12: false })
}
