/* global document, setInterval, performance */
// A fleet's view: one tile per device with its state and request rate, filtered by name; a tile opens that device's view,
// and its buttons take the device offline, reboot it or bring it back.
import { call } from './api.js'
import { count, el } from './dom.js'

/** How often the devices' counts are read again, for their request rates. */
const EVERY_MS = 2000

/** What each button of a tile asks of the device's health: offline and back need no `for` on the control address. */
const HEALTH_ACTIONS = [
  { label: 'Offline', health: { state: 'offline' } },
  { label: 'Reboot', health: { state: 'rebooting', down: 5000, starting: 5000 } },
  { label: 'Online', health: { state: 'online' } }
]

export function fleetView ({ onError }) {
  const section = document.querySelector('#fleet')
  const filter = document.querySelector('#fleet-filter')
  const summary = document.querySelector('#fleet-summary')
  const grid = document.querySelector('#fleet-tiles')
  /** name → { tile, state, rate, last: { requests, at } }: a tile is made once and updated in place. */
  const tiles = new Map()

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
    const box = el('div', { class: 'tile-box' }, tile, actions)
    return { box, tile, state, rate, last: undefined }
  }

  function setHealth (name, health) {
    call('PUT', `/devices/${encodeURIComponent(name)}/health`, health).then(load).catch(onError)
  }

  function update (devices) {
    const now = performance.now()
    let total = 0
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
      entry.tile.dataset.state = device.state
      entry.state.textContent = device.state
      entry.rate.textContent = `${perSecond.toFixed(1)} req/s`
    }
    applyFilter()
    summary.textContent = `${count(devices.length, 'device')}, ${total.toFixed(1)} requests per second in all`
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

  const load = () => call('GET', '/devices').then(({ devices }) => update(devices))
  filter.addEventListener('input', applyFilter)

  return {
    /** Shows the fleet and keeps its rates current. */
    show (devices) {
      section.hidden = false
      update(devices)
      setInterval(() => {
        if (!document.hidden) load().catch(onError)
      }, EVERY_MS)
    }
  }
}
