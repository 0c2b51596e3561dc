import { http, HttpResponse, type HttpHandler } from 'msw'
import { PlainTokenPolicy } from '../contract/bearer.js'
import type { ScopedToken } from '../contract/scoped-tokens.js'
import { fieldProblem, optionsError } from '../config/option-problems.js'
import type { ValueProblem } from '../util/value-errors.js'
import { API_PREFIX, isUnder } from '../contract/paths.js'
import { verbsOf, type ControlVerbs } from '../control/control-verbs.js'
import { DeviceCore } from '../device/device-core.js'
import { datasetFromData, mergeFixtures, type Dataset } from '../data/dataset.js'
import { validateFixtureData } from '../data/fixture-validation.js'
import { CorsPolicy } from '../wire/cors.js'
import { answer, type Answer } from './answer.js'
import { DEMO_FIXTURES } from './demo-fixtures.js'
import { resolveHandlerOptions, type NvrHandlersOptions } from './handler-options.js'
import { ServedTextStore } from './served-store.js'
import { pageClockOf } from './page-clock.js'
import { handleClock, type HandleClock } from '../device/handle-clock.js'
export type { HandleClock }
import type { ScopedTokensError } from '../errors/errors.js'

export type { NvrHandlersOptions }
/** What a bad option, bad data or a bad fault spec throws, each with its stable `code`; the catalogues of codes. */
export { OptionsError, MockNvrError, ProblemsError, ScopedTokensError, FixtureError, InvalidFaultError, SettingError, ClockError } from '../errors/errors.js'
export { ERROR_CODES, THROWN_ERROR_CODES } from '../errors/catalogue.js'
export type { ScopedToken } from '../contract/scoped-tokens.js'
/** What the handlers' verbs take and give: data, faults, the journal and the summaries of what is in force. */
export type { ControlVerbs } from '../control/control-verbs.js'
export type * from '../control/summaries.js'
export type { FixtureData } from '../contract/schemas.js'
export type { Fault, FaultSpec } from '../control/faults/fault-spec.js'
export type { JournalEntry } from '../control/journal.js'

/** The handlers for setupServer() or setupWorker(), and the control verbs of the server's handle. */
export interface NvrHandlers extends ControlVerbs {
  handlers: HttpHandler[]
  /** The handlers' clock: with `clock: 'manual'`, advance(ms) answers the requests their latency or delays hold. */
  clock: HandleClock
}

/**
 * MSW handlers that answer below `${baseUrl}/nvr/v1` as mock-nvr's server does, from the same contract
 * decisions: every other request passes through to the network.
 */
export function createNvrHandlers (options: NvrHandlersOptions): NvrHandlers {
  const settings = resolveHandlerOptions(options)
  const { origin, tokens, scopedTokens, clock: clockKind, corsOrigins, data } = settings
  const clock = pageClockOf(clockKind)
  const store = new ServedTextStore(data === undefined ? demoDataset() : datasetFromData(data))
  const policy = newTokenPolicy(tokens, scopedTokens)
  const device = new DeviceCore({ name: 'msw', store, tokens: policy, cors: new CorsPolicy(corsOrigins), settings, clock })

  const handler = http.all(({ request }) => {
    const url = new URL(request.url)
    return url.origin === origin && isUnder(url.pathname + url.search, API_PREFIX)
  }, async ({ request }) => {
    const answered = await answer(request, device)
    return answered === undefined ? HttpResponse.error() : toResponse(answered)
  })

  return {
    handlers: [handler],
    ...verbsOf(device),
    clock: handleClock(clock, async () => {})
  }
}

// A scoped token that is also an all-camera one is refused as startMockNvr refuses it, in its words.
function newTokenPolicy (tokens: readonly string[], scopedTokens: readonly ScopedToken[]): PlainTokenPolicy {
  try {
    return new PlainTokenPolicy(tokens, scopedTokens)
  } catch (error) {
    const [problem] = (error as ScopedTokensError).problems as [ValueProblem]
    throw optionsError(fieldProblem('scopedTokens', problem.path, problem.message))
  }
}

function toResponse ({ status, headers, body }: Answer): Response {
  const responseHeaders = new Headers()
  for (let index = 0; index < headers.length; index += 2) responseHeaders.set(headers[index] as string, headers[index + 1] as string)
  // A 204, and a HEAD answer, have no body; the Content-Length of a HEAD answer still says what a GET gets.
  const bytes = body.length === 0 ? null : body
  return new HttpResponse(bytes as ConstructorParameters<typeof HttpResponse>[0], { status, headers: responseHeaders })
}

/** The bundled demo fixtures, checked and merged as the server reads fixtures/. */
function demoDataset (): Dataset {
  return mergeFixtures(DEMO_FIXTURES.map(({ file, data }) => ({ file, data: validateFixtureData(data, file) })))
}
