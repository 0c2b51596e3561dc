// @ts-check
/// <reference lib="dom" />
/// <reference lib="dom.iterable" />
/* global document, location, setTimeout, clearTimeout, setInterval, clearInterval, AbortController, ResizeObserver, console, HTMLFormElement, HTMLInputElement */
// The dashboard: asks for the admin token once per tab, then shows the data, the requests live and the faults.
import { call, readJournalStream, Refusal, ServerGone, token, TokenRefused, useDevice } from './api.js'
import { find } from './dom.js'
import { fleetView } from './fleet-view.js'
import { dataView } from './data-view.js'
import { faultsView } from './faults-view.js'
import { requestsView } from './requests-view.js'
import { healthView } from './health-view.js'

/** Quick retries of a lost stream before the page says the server is gone; it keeps trying after, slower. */
const QUICK_RETRIES = 3
const SLOW_RETRY_MS = 10_000
/** How often the faults are read again, so changes made elsewhere show. */
const FAULTS_EVERY_MS = 2000

/** @typedef {{ stopped: boolean, stop: () => void, wake: () => void }} Session */

const connection = find('#connection')
const tokenPanel = find('#token-panel')
const tokenForm = find('#token-form', HTMLFormElement)
const tokenInput = find('#token-input', HTMLInputElement)
const tokenError = find('#token-error')
const dashboard = find('#dashboard')
const forgetButton = find('#forget-token')
const nav = find('nav')
const navNote = find('#nav-note')
const offline = find('#offline')
const offlineText = find('#offline-text')

// A section reached by its link starts below the sticky header, however many lines the header wraps to.
const header = find('.top')
new ResizeObserver(() => document.documentElement.style.setProperty('--header-height', `${header.offsetHeight}px`)).observe(header)
const cameraIds = find('#camera-ids')

/** @type {Session | undefined} The current connection: stopped when the token changes, woken to retry at once. */
let session

/**
 * @param {string} state
 * @param {string} text
 */
function setState (state, text) {
  connection.dataset.state = state
  document.body.dataset.state = state
  connection.textContent = text
  offline.hidden = state !== 'offline'
}

/** @param {unknown} error */
function onError (error) {
  if (error instanceof TokenRefused) askForToken('The admin token was not accepted: enter the one mock-nvr was started with (--admin-token or MOCK_NVR_ADMIN_TOKEN).')
  else if (error instanceof ServerGone) session?.wake()
  else console.error(error)
}

const data = dataView({
  onError,
  onCameras: (/** @type {string[]} */ ids) => cameraIds.replaceChildren(...ids.slice(0, 500).map(id => Object.assign(document.createElement('option'), { value: id })))
})
const faults = faultsView({
  onError,
  onReset: () => {
    requests.clear()
    return data.load().catch(onError)
  }
})
let faultsQueued = false
const requests = requestsView({
  onError,
  // A request shaped by a fault used up one of its requests: read the faults again, once per burst.
  onFaultSeen: () => {
    if (faultsQueued) return
    faultsQueued = true
    setTimeout(() => {
      faultsQueued = false
      faults.load().catch(onError)
    }, 50)
  }
})

function loadAll () {
  return Promise.all([data.load(), faults.load(), health.load()]).catch(onError)
}

/**
 * The sections are hidden until the admin token is given: their links say so and lead to the token field meanwhile.
 * @param {boolean} locked
 */
function lockSections (locked) {
  nav.toggleAttribute('data-locked', locked)
  navNote.hidden = !locked
  for (const link of nav.querySelectorAll('a')) {
    // Locked, every link shows, greyed; once open, a view hides those of the sections it does not show.
    if (locked) {
      link.hidden = false
      link.setAttribute('aria-disabled', 'true')
    } else {
      link.removeAttribute('aria-disabled')
    }
  }
}

nav.addEventListener('click', event => {
  if (!nav.hasAttribute('data-locked') || /** @type {Element} */ (event.target).closest('a') === null) return
  event.preventDefault()
  tokenInput.focus()
})

function askForToken (message = '') {
  lockSections(true)
  nav.hidden = false
  session?.stop()
  session = undefined
  token.forget()
  dashboard.hidden = true
  forgetButton.hidden = true
  tokenPanel.hidden = false
  tokenError.textContent = message
  tokenInput.value = ''
  setState(message === '' ? 'token' : 'refused', message === '' ? 'Waiting for the admin token' : 'Admin token refused')
  tokenInput.focus()
}

/** On a fleet's control address, the device this view shows (?device=nvr-002), or null for the fleet. */
const deviceName = new URLSearchParams(location.search).get('device')
// A single mock-nvr's admin API is on the device's own port; a fleet device's is on the control address.
const health = healthView({ onError, sharesPort: deviceName === null })
const fleet = fleetView({ onError })

function start () {
  lockSections(false)
  tokenPanel.hidden = true
  forgetButton.hidden = false
  if (deviceName !== null) {
    useDevice(deviceName)
    find('#device-nav').hidden = false
    find('#device-name').textContent = deviceName
    return openDevice()
  }
  setState('connecting', 'Connecting…')
  // The fleet's view has none of a device's sections: their links wait hidden until the page knows which view it shows.
  nav.hidden = true
  // A fleet's control address lists its devices (one is enough to know; the view reads them page by page); a single
  // mock-nvr has no such list and shows its own view.
  call('GET', '/devices?limit=1').then(() => {
    setState('live', 'Fleet')
    fleet.show()
  }, error => {
    if (error instanceof Refusal && error.status === 404) openDevice()
    else onError(error)
  })
}

function openDevice () {
  nav.hidden = false
  dashboard.hidden = false
  setState('connecting', 'Connecting…')
  session = openSession()
  loadAll()
}

/** @returns {Session} */
function openSession () {
  /** @type {AbortController | undefined} */
  let controller
  /** @type {((value?: unknown) => void) | undefined} */
  let wakeUp
  /** @type {ReturnType<typeof setTimeout> | undefined} */
  let retry
  const poll = setInterval(() => {
    if (!document.hidden && connection.dataset.state === 'live') faults.load().catch(onError)
  }, FAULTS_EVERY_MS)
  const current = {
    stopped: false,
    stop () {
      current.stopped = true
      clearInterval(poll)
      clearTimeout(retry)
      controller?.abort()
    },
    wake () {
      wakeUp?.()
    }
  }
  const pause = (/** @type {number} */ ms) => new Promise(resolve => {
    wakeUp = resolve
    retry = setTimeout(resolve, ms)
  })

  ;(async function streamJournal () {
    let failures = 0
    while (!current.stopped) {
      controller = new AbortController()
      let problem = 'the connection was lost'
      let answered = false
      try {
        await readJournalStream((name, event) => {
          if (name === 'ready') {
            if (failures > 0) loadAll()
            failures = 0
            setState('live', 'Live')
          }
          requests.handle(name, event)
          health.handle(name, event)
        }, controller.signal)
      } catch (error) {
        if (error instanceof TokenRefused) return onError(error)
        if (error instanceof Refusal) {
          problem = error.message
          answered = true
        }
      }
      if (current.stopped) return
      failures++
      if (failures <= QUICK_RETRIES) {
        setState('reconnecting', `Reconnecting (${failures} of ${QUICK_RETRIES}): ${problem}`)
        await pause(1000 * failures)
      } else {
        // Refused (too many streams open, say) is not gone: the page says which one it is.
        setState('offline', answered ? 'Live requests refused' : 'mock-nvr is not answering')
        offlineText.textContent = answered
          ? `mock-nvr at ${location.host} refuses the live requests: ${problem} The page keeps trying every ${SLOW_RETRY_MS / 1000} seconds.`
          : `mock-nvr at ${location.host} is not answering (${problem}). The page keeps trying every ${SLOW_RETRY_MS / 1000} seconds.`
        await pause(SLOW_RETRY_MS)
      }
    }
  })()
  return current
}

tokenForm.addEventListener('submit', event => {
  event.preventDefault()
  const value = tokenInput.value.trim()
  if (value === '') return
  token.set(value)
  tokenInput.value = ''
  start()
})
forgetButton.addEventListener('click', () => askForToken())
find('#retry-now').addEventListener('click', () => session?.wake())

if (token.get() === null) askForToken()
else start()
