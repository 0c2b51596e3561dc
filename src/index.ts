import './node-version-guard.js'
/** Start the mock in-process: `const nvr = await startMockNvr({ data })`, then `await nvr.close()`. */
export { startMockNvr, type MockNvr, type StartOptions } from './start/start-mock-nvr.js'
/** What the proxy option takes: the target to forward /nvr/v1 to, and what to keep of its answers. */
export type { ProxyOptions } from './target-proxy/target-proxy.js'
/** What a handle can change or ask of its device while it runs, its health included, and its clock. */
export type { DeviceVerbs, HealthVerbs } from './device/device.js'
export type { HandleClock } from './device/handle-clock.js'
/** A health state as setHealth takes it, its name, and the health a handle reports. */
export type { HealthSpec, HealthStateName } from './health/health-states.js'
export type { HealthReport } from './health/device-health.js'
/** Start a fleet of devices in-process, each on its own port: `const fleet = await startMockFleet({ count: 50 })`. */
export { startMockFleet, type MockFleet } from './fleet/start-mock-fleet.js'
/** What startMockFleet takes: the options every device shares, and count or devices, exactly one of them. */
export type { FleetOptions, FleetSharedOptions, FleetDevices, FleetDeviceOptions, DeviceSettings } from './fleet/fleet-options.js'
export type { FleetOption, SettingKey } from './config/settings.js'
/** An entry of a fleet's journal: the device's name and the request. */
export type { FleetJournalEntry, ListedDevice } from './admin-api/fleet-routes.js'
/** The Fastify app without listening, for `inject()`. */
export { buildApp, type AppDependencies } from './app/build-app.js'
/** The OpenAPI document for given options, without listening: `await openApiDocument({ fixtures })`. */
export { openApiDocument } from './start/openapi-document.js'
export type { OpenApiDocument } from './openapi/examples.js'
/**
 * The options of one device, as startMockNvr takes them (its StartOptions add `proxy`) and as a fleet's devices
 * share them.
 */
export type { MockNvrOptions } from './config/options.js'
/** A fleet's shard, `K/N`: the K-th of N slices of its devices. */
export type { ShardText } from './config/shard.js'
/** The handle's verbs: what a test can change or ask while the mock runs. */
export type { ControlVerbs } from './control/control-verbs.js'
/** What the verbs answer (the summaries of what is in force), and the settings a running device takes. */
export type * from './control/summaries.js'
/** A token that sees only some cameras (`{ token, cameras }`), as the scopedTokens option and setScopedTokens() take it. */
export type { ScopedToken } from './contract/scoped-tokens.js'
/** Fixture loading and validation, for checking your own fixture files. */
export { BUNDLED_FIXTURES, loadFixtures } from './data/fixtures.js'
export { datasetFromData, type Dataset } from './data/dataset.js'
/** The wire shapes, as TypeBox schemas and TypeScript types. */
export {
  CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema, FixtureDataSchema,
  type CountingLine, type CountingLineEnvelope, type CountingLineListEnvelope, type ErrorEnvelope, type FixtureData
} from './contract/schemas.js'
/** What buildApp is built from: the data to serve, the accepted tokens, the allowed origins. */
export { DataStore } from './data/data-store.js'
export { TokenPolicy } from './wire/token-policy.js'
export { CorsPolicy } from './wire/cors.js'
/** Deterministic synthetic data, as `--generate` serves it: `generateFixtureData({ cameras, linesPerCamera, seed })`. */
export { generateFixtureData, type GenerateOptions } from './data/generate.js'
/** A fault to inject (`{ status: 503, times: 2 }`, `{ delay: { min: 100, max: 800 }, route: 'list' }`), and one injected. */
export { FaultSpecSchema, type FaultSpec, type Fault, type Operation } from './control/faults/fault-spec.js'
export type { OperationName } from './contract/paths.js'
/** A delay: milliseconds, or `{ min, max }` for a random one from the seeded generator. */
export { DelaySchema, type Delay, type DelayRange } from './util/delay.js'
/** What a handle's events() gives: a change of health or a data edit, told apart by `kind`. */
export type { DeviceEvent, HealthEvent, HealthChange, HealthChangeCause, PortTaken, DataEvent } from './control/device-events.js'
/** A data edit as drift makes it: the line, its camera, what was done and when. */
export type { DriftEdit } from './health/drift.js'
/** One received request as the journal keeps it: method, path, params, authenticated, status, fault, time. */
export type { JournalEntry } from './control/journal.js'
/** One problem of a checked value: its JSON path and what is wrong. */
export type { ValueProblem } from './util/value-errors.js'
/** Checks the target, a real NVR, against the contract and compares the unspecified cases with mock-nvr: `await verifyTarget({ target, token, cameras })`. */
export { verifyTarget, type VerifyReport, type Difference } from './target-link/verify-target.js'
/** Reads the target into fixture data, all or nothing; throws RecordRefusedError (with the report) when it breaks the contract. */
export { recordTarget } from './target-link/record-target.js'
/** Options of verifyTarget and recordTarget. */
export type { TargetLinkOptions } from './target-client/target-connection.js'
/** One contract violation, and one answer to an unspecified case as verify compares it. */
export type { Violation } from './target-client/contract-check.js'
export type { Observation } from './target-link/observation.js'

/** Every error the library throws, each with its stable `code`, from one module; and the catalogues of codes. */
export * from './errors/library.js'

/** The names verifyTarget, recordTarget, TargetLinkError and TargetLinkOptions had at first, still exported (deprecated). */
export { verifyDevice, recordDevice, DeviceLinkError, type DeviceLinkOptions } from './target-link/older-names.js'
