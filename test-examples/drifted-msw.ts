import { http, HttpResponse } from 'msw'
import { createNvrHandlers as createHandlers, type NvrHandlersOptions } from '../src/msw/index.js'
import { driftedList, driftOf } from './drift.js'

/**
 * Stands in for mock-nvr/msw in the Vitest recipe's negative runs: handlers written by hand that drifted from the
 * contract (see drift.ts). The control verbs are mock-nvr's, so the recipe's tests run as written, and must fail.
 */
export function createNvrHandlers (options: NvrHandlersOptions) {
  const drift = driftOf(process.env.DRIFT)
  const list = http.get(`${options.baseUrl}/nvr/v1/cameras/:id/counting_lines`, ({ params }) => HttpResponse.json(driftedList(drift, String(params.id))))
  return { ...createHandlers(options), handlers: [list] }
}
