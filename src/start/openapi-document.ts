import { buildApp } from '../app/build-app.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { CorsPolicy } from '../wire/cors.js'
import { DataStore } from '../data/data-store.js'
import { loadStartupData } from './startup-data.js'
import { BUNDLED_FIXTURES } from '../data/fixtures.js'
import type { OpenApiDocument } from '../openapi/examples.js'
import { resolveOptions, type MockNvrOptions } from '../config/options.js'

/**
 * The OpenAPI document /openapi.json would serve with these options, its examples taken from the same
 * fixtures, data or generated data; the app is built and asked, but never listens.
 */
export async function openApiDocument (input: MockNvrOptions = {}): Promise<OpenApiDocument> {
  const options = resolveOptions(input)
  const { data } = await loadStartupData(options, options.fixtures ?? BUNDLED_FIXTURES)
  const app = await buildApp({
    store: new DataStore(data),
    tokens: new TokenPolicy(options.tokens),
    cors: new CorsPolicy(options.corsOrigins),
    maxHeaderSize: options.maxHeaderSize
  })
  try {
    return (await app.inject('/openapi.json')).json()
  } finally {
    await app.close()
  }
}
