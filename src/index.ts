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
/** The run-time control behind the handle's verbs and the admin API: data, faults, request journal. */
export { MockControl, type MockControlOptions, type DataSummary } from './control.js'
/** A fault to inject (`{ status: 503, times: 2 }`, `{ delay: { min: 100, max: 800 }, route: 'list' }`), and one injected. */
export { FaultSpecSchema, type FaultSpec, type Fault, type Operation } from './fault-spec.js'
/** Thrown by injectFault() for a bad spec; `problems` lists each JSON path and what is wrong there. */
export { InvalidFaultError } from './fault-spec.js'
/** A delay: milliseconds, or `{ min, max }` for a random one from the seeded generator. */
export { DelaySchema, type Delay, type DelayRange } from './delay.js'
/** One received request as the journal keeps it: method, path, params, authenticated, status, fault, time. */
export { RequestJournal, type JournalEntry } from './journal.js'
/** Faults, latency and Prefer handling of the device API, as MockControl holds them. */
export { FaultControl, type FaultControlOptions } from './faults.js'
/** The admin API plugin and where it is mounted (`/__admin`). */
export { adminApi, ADMIN_PREFIX, type AdminApiOptions } from './admin.js'
/** One problem of a checked value: its JSON path and what is wrong. */
export type { ValueProblem } from './value-errors.js'
