/* global document, setInterval, performance */
// A fleet's view: one tile per device with its state and request rate, filtered by name; a tile opens that device's view.
import { call } from './api.js'
import { count, el } from './dom.js'

/** How often the devices' counts are read again, for their request rates. */
const EVERY_MS = 2000

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
    return { tile, state, rate, last: undefined }
  }

  function update (devices) {
    const now = performance.now()
    let total = 0
    for (const device of devices) {
      let entry = tiles.get(device.name)
      if (entry === undefined) {
        entry = tileFor(device)
        tiles.set(device.name, entry)
        grid.append(entry.tile)
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
    for (const [name, { tile }] of tiles) {
      tile.hidden = wanted !== '' && !name.toLowerCase().includes(wanted)
      if (!tile.hidden) shown++
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
