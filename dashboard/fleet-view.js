// @ts-check
/// <reference lib="dom" />
/* global document, HTMLInputElement, setInterval, setTimeout, performance, AbortController */
// A fleet's view: one tile per device with its state and request rate, filtered by name; a tile opens that device's view,
// and its buttons take the device offline, reboot it or bring it back. A device with faults in force has a marker that
// says how many, and clears them. A tile's state follows the fleet's event stream
// at once; the rates and the faults come from the list, read every 2 s a page of 500 devices at a time (so a request costs the page
// nothing of its own: the stream it reads carries the health and data events alone, and no read of the list holds a device).
import { call, readJournalStream, TokenRefused } from './api.js'
import { count, el, find } from './dom.js'

/** @typedef {import('../src/admin-api/fleet-devices.js').ListedDevice} ListedDevice */
/** @typedef {import('../src/health/health-states.js').HealthSpec} HealthSpec */
/** @typedef {import('../src/control/device-events.js').HealthEvent} HealthEvent */
/**
 * A device's tile, made once and updated in place; `last` is its journal's count when last read, for a rate.
 * @typedef {{ box: HTMLElement, tile: HTMLElement, state: HTMLElement, rate: HTMLElement, faults: HTMLElement, last: { requests: number, at: number } | undefined }} Tile
 */

/** How often the devices' counts are read again, for their request rates. */
const EVERY_MS = 2000
/** Devices a read of the list asks for at once: each page is a request of its own, the server's answer written in steps. */
const PAGE = 500
/** How long before a lost stream is opened again; the list read every 2 s keeps the states right meanwhile. */
const STREAM_RETRY_MS = 5000

/**
 * What each button of a tile asks of the device's health: offline and back need no `for` on the control address.
 * @type {Array<{ label: string, health: HealthSpec }>}
 */
const HEALTH_ACTIONS = [
  { label: 'Offline', health: { state: 'offline' } },
  { label: 'Reboot', health: { state: 'rebooting', down: 5000, starting: 5000 } },
  { label: 'Online', health: { state: 'online' } }
]

/** @param {{ onError: (error: unknown) => void }} options */
export function fleetView ({ onError }) {
  const section = find('#fleet')
  const filter = find('#fleet-filter', HTMLInputElement)
  const summary = find('#fleet-summary')
  const grid = find('#fleet-tiles')
  /** @type {Map<string, Tile>} by device name */
  const tiles = new Map()

  /**
   * @param {ListedDevice} device
   * @returns {Tile}
   */
  function tileFor (device) {
    const state = el('span', { class: 'tile-state' })
    const rate = el('span', { class: 'tile-rate' })
    const tile = el('a', { class: 'tile', href: `?device=${encodeURIComponent(device.name)}`, 'data-name': device.name },
      el('strong', {}, device.name), state, rate, el('span', { class: 'tile-cameras muted' }, count(device.cameras.length, 'camera')))
    // Beside the link, not in it: a button inside a link is not a button to assistive technology.
    const actions = el('div', { class: 'tile-actions', role: 'group', 'aria-label': `Health of ${device.name}` },
      ...HEALTH_ACTIONS.map(({ label, health }) => {
        const button = el('button', { type: 'button', 'data-health': health.state }, label)
        button.addEventListener('click', () => setHealth(device.name, health))
        return button
      }))
    // Shown while the device has faults in force, whoever injected them; a click clears them.
    const faults = el('button', { type: 'button', class: 'tile-faults', hidden: true, 'data-faults': '0' })
    faults.addEventListener('click', () => clearFaults(device.name))
    const box = el('div', { class: 'tile-box' }, tile, faults, actions)
    return { box, tile, state, rate, faults, last: undefined }
  }

  /** @param {string} name */
  function clearFaults (name) {
    call('DELETE', `/devices/${encodeURIComponent(name)}/faults`).then(load).catch(onError)
  }

  /**
   * @param {Tile} entry
   * @param {string} name
   * @param {number} number
   */
  function showFaults (entry, name, number) {
    if (entry.faults.dataset.faults === String(number)) return
    entry.faults.dataset.faults = String(number)
    entry.faults.hidden = number === 0
    entry.tile.toggleAttribute('data-faulty', number > 0)
    // Its name says whose faults it clears: "2 faults on nvr-002 — Clear".
    entry.faults.replaceChildren(el('span', { 'aria-hidden': 'true' }, '⚠ '), count(number, 'fault'),
      el('span', { class: 'visually-hidden' }, ` on ${name}`), ' — Clear')
  }

  /**
   * @param {string} name
   * @param {HealthSpec} health
   */
  function setHealth (name, health) {
    call('PUT', `/devices/${encodeURIComponent(name)}/health`, health).then(load).catch(onError)
  }

  /** @param {ListedDevice[]} devices */
  function update (devices) {
    const now = performance.now()
    let total = 0
    let faulty = 0
    for (const device of devices) {
      let entry = tiles.get(device.name)
      if (entry === undefined) {
        entry = tileFor(device)
        tiles.set(device.name, entry)
        grid.append(entry.box)
      }
      // The journal's count since its last clear: a clear is not a negative rate.
      const perSecond = entry.last === undefined ? 0 : Math.max(0, device.requests - entry.last.requests) / ((now - entry.last.at) / 1000)
      entry.last = { requests: device.requests, at: now }
      total += perSecond
      showState(entry, device.state)
      showFaults(entry, device.name, device.faults)
      if (device.faults > 0) faulty++
      entry.rate.textContent = `${perSecond.toFixed(1)} req/s`
    }
    applyFilter()
    const withFaults = faulty === 0 ? '' : `, ${faulty} with faults in force`
    summary.textContent = `${count(devices.length, 'device')}${withFaults}, ${total.toFixed(1)} requests per second in all`
  }

  /**
   * @param {Tile} entry
   * @param {string} state
   */
  function showState (entry, state) {
    entry.tile.dataset.state = state
    entry.state.textContent = state
  }

  // The fleet's events: each health event names its device, whose tile changes at once. A gap in the stream (events dropped, a new connection) is filled by reading the list again.
  /**
   * @param {string} name
   * @param {HealthEvent & { device: string }} data
   */
  function onEvent (name, data) {
    if (name === 'health') {
      const entry = tiles.get(data.device)
      if (entry !== undefined) showState(entry, tileState(data))
    } else if (name === 'dropped' || name === 'ready') {
      load().catch(onError)
    }
  }

  async function followStream () {
    for (;;) {
      try {
        await readJournalStream(onEvent, new AbortController().signal, '/events/stream')
      } catch (error) {
        if (error instanceof TokenRefused) return onError(error)
      }
      await new Promise(resolve => setTimeout(resolve, STREAM_RETRY_MS))
    }
  }

  function applyFilter () {
    const wanted = filter.value.trim().toLowerCase()
    let shown = 0
    for (const [name, { box }] of tiles) {
      box.hidden = wanted !== '' && !name.toLowerCase().includes(wanted)
      if (!box.hidden) shown++
    }
    grid.dataset.shown = String(shown)
  }

  // Every page of the list, one request after another, then the tiles.
  async function load () {
    /** @type {ListedDevice[]} */
    const devices = []
    /** @type {string | null} */
    let after = null
    do {
      const page = await call('GET', `/devices?limit=${PAGE}${after === null ? '' : `&after=${encodeURIComponent(after)}`}`)
      devices.push(...page.devices)
      after = page.next
    } while (after !== null)
    update(devices)
  }
  filter.addEventListener('input', applyFilter)

  return {
    /** Shows the fleet, read page by page, and keeps its rates current. */
    show () {
      section.hidden = false
      load().catch(onError)
      setInterval(() => {
        if (!document.hidden) load().catch(onError)
      }, EVERY_MS)
      followStream()
    }
  }
}

/**
 * As the admin list words it (admin-api/fleet-devices.ts): "rebooting (starting)", "offline (port taken)".
 * @param {HealthEvent} event
 */
function tileState ({ state, phase, cause }) {
  if (cause === 'port-taken') return 'offline (port taken)'
  return phase === undefined ? state : `${state} (${phase})`
}
