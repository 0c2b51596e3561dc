/** Start the mock in-process: `const nvr = await startMockNvr({ data })`, then `await nvr.close()`. */
export { startMockNvr, type MockNvr } from './server.js'
/** The Fastify app without listening, for `inject()`. */
export { buildApp, type AppDependencies } from './app.js'
/** The OpenAPI document for given options, without listening: `await openApiDocument({ fixtures })`. */
export { openApiDocument } from './openapi-document.js'
/** Options of startMockNvr and the CLI. */
export { LOG_LEVELS, OptionsError, type MockNvrOptions, type ResolvedOptions } from './options.js'
/** Fixture loading and validation, for checking your own fixture files. */
export { BUNDLED_FIXTURES, datasetFromData, loadFixtures, type Dataset } from './fixtures.js'
/** Thrown when fixture data cannot be served; `problems` lists file, JSON path and message. */
export { FixtureError, type FixtureProblem } from './fixture-validation.js'
/** The wire shapes, as TypeBox schemas and TypeScript types. */
export {
  CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema, FixtureDataSchema,
  type CountingLine, type CountingLineEnvelope, type CountingLineListEnvelope, type ErrorEnvelope, type FixtureData
} from './schemas.js'
/** Building blocks of buildApp's dependencies. */
export { DataStore } from './data-store.js'
export { TokenPolicy } from './auth.js'
export { CorsPolicy } from './cors.js'
/** Deterministic synthetic data, as `--generate` serves it: `generateFixtureData({ cameras, linesPerCamera, seed })`. */
export { generateFixtureData, type GenerateOptions } from './generate.js'
/** Thrown when a TLS certificate or key file cannot be served with; the message names the file. */
export { TlsError } from './tls.js'
