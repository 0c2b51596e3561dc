import { createNvrHandlers as createHandlers, type NvrHandlersOptions } from '../src/msw/index.js'

/** The MSW handlers with one rule broken: any token opens the API, even when tokens are given. */
export function createNvrHandlers (options: NvrHandlersOptions) {
  return createHandlers({ ...options, tokens: [] })
}
