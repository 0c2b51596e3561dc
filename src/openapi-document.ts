import { buildApp } from './app.js'
import { TokenPolicy } from './auth.js'
import { CorsPolicy } from './cors.js'
import { DataStore } from './data-store.js'
import { loadStartupData } from './data-source.js'
import { BUNDLED_FIXTURES } from './fixtures.js'
import type { OpenApiDocument } from './openapi-examples.js'
import { resolveOptions, type MockNvrOptions } from './options.js'

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
