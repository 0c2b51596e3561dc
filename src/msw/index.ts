import { TypeCompiler } from '@sinclair/typebox/compiler'
import { http, HttpResponse, type HttpHandler } from 'msw'
import { PlainTokenPolicy } from '../contract/bearer.js'
import { API_PREFIX, isUnder } from '../contract/paths.js'
import { verbsOf, type ControlVerbs } from '../control/control-verbs.js'
import { MockControl } from '../control/mock-control.js'
import { datasetFromData, mergeFixtures, type Dataset } from '../data/dataset.js'
import { validateFixtureData } from '../data/fixture-validation.js'
import { DelaySchema, toDelayRange, type Delay, type DelayRange } from '../util/delay.js'
import { CorsPolicy } from '../wire/cors.js'
import type { FixtureData } from '../wire/schemas.js'
import { answer, type Answer } from './answer.js'
import { DEMO_FIXTURES } from './demo-fixtures.js'
import { ServedTextStore } from './served-store.js'

export interface NvrHandlersOptions {
  /** The origin the frontend calls, e.g. 'http://nvr.test' or location.origin; the API is under `${baseUrl}/nvr/v1`. */
  baseUrl: string
  /** Accepted bearer tokens; without them any non-empty token is accepted, as the server does without --token. */
  tokens?: readonly string[]
  /** Data in the shape of a fixture file, validated like one; the bundled demo fixtures when absent. */
  data?: FixtureData
  /** Delay of every API request: milliseconds, or { min, max } for a random one (see seed). */
  latency?: Delay
  /** Seed of the random delays; reset() starts the sequence again. */
  seed?: number
  /** Origins allowed to read answers, as --cors-origin; any origin when empty. */
  corsOrigins?: readonly string[]
}

/** The handlers for setupServer() or setupWorker(), and the control verbs of the server's handle. */
export interface NvrHandlers extends ControlVerbs {
  handlers: HttpHandler[]
}

const checkDelay = TypeCompiler.Compile(DelaySchema)

/**
 * MSW handlers that answer below `${baseUrl}/nvr/v1` as mock-nvr's server does, from the same contract
 * decisions: every other request passes through to the network.
 */
export function createNvrHandlers (options: NvrHandlersOptions): NvrHandlers {
  const origin = originOf(options.baseUrl)
  const store = new ServedTextStore(options.data === undefined ? demoDataset() : datasetFromData(options.data, 'option data'))
  const control = new MockControl({ store, latency: latencyRange(options.latency), seed: seedOf(options.seed) })
  const context = { tokens: new PlainTokenPolicy(options.tokens), cors: new CorsPolicy(options.corsOrigins), control }

  const handler = http.all(({ request }) => {
    const url = new URL(request.url)
    return url.origin === origin && isUnder(url.pathname + url.search, API_PREFIX)
  }, async ({ request }) => {
    const answered = await answer(request, context)
    return answered === undefined ? HttpResponse.error() : toResponse(answered)
  })

  return {
    handlers: [handler],
    ...verbsOf(control)
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

function originOf (baseUrl: unknown): string {
  let url: URL
  try {
    url = new URL(String(baseUrl))
  } catch {
    throw new TypeError(`option baseUrl must be an origin such as 'http://nvr.test', not ${JSON.stringify(baseUrl)}`)
  }
  if (url.origin === 'null' || url.href !== `${url.origin}/`) {
    throw new TypeError(`option baseUrl must be an origin such as 'http://nvr.test', without a path, not ${JSON.stringify(baseUrl)}`)
  }
  return url.origin
}

function latencyRange (latency: unknown): DelayRange | undefined {
  if (latency === undefined) return undefined
  const range = checkDelay.Check(latency) ? toDelayRange(latency) : `must be ${String(DelaySchema.description)}`
  if (typeof range === 'string') throw new TypeError(`option latency is invalid: ${range}`)
  return range
}

function seedOf (seed: unknown): number {
  if (seed === undefined) return 1
  if (Number.isInteger(seed) && (seed as number) >= 0 && (seed as number) <= 0xffffffff) return seed as number
  throw new TypeError(`option seed must be an integer from 0 to 4294967295, not ${JSON.stringify(seed)}`)
}
