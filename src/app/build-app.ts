import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import type { IncomingMessage } from 'node:http'
import Fastify, { type FastifyBaseLogger, type FastifyServerOptions, type FastifyInstance, type FastifyRequest, type FastifyServerFactoryHandler } from 'fastify'
import { adminApi, type HandClock } from '../admin-api/routes.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { registerDashboard } from '../admin-api/dashboard-page.js'
import { adminArea, guardAreas } from '../wire/area-guard.js'
import { registerApiPage } from '../openapi/api-page.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { answerClientError } from './client-errors.js'
import { closeConnectionsWhenDone } from './closing.js'
import { MockControl } from '../control/mock-control.js'
import type { CorsPolicy } from '../wire/cors.js'
import type { DataStore } from '../data/data-store.js'
import { handleError, handleNotFound } from '../wire/error-handler.js'
import { FastPath } from './fast-path.js'
import { answerHttpEdgeCases, answerServerEdgeCases } from './http-edges.js'
import { answerFrameworkErrorOf, checkEveryRequestOf } from './request-checks.js'
import { registerHealthz } from './healthz.js'
import { createListenerServer, roleOf, type ListenerRole, type ServerSettings } from './http-server.js'
import { DevicePort } from '../device/device-port.js'
import { Device } from '../device/device.js'
import { registerFleetAdmin, type FleetAdmin } from '../admin-api/fleet-routes.js'
import { BODY_LIMIT_BYTES, capConnections, DEFAULT_LIMITS, nodeServerOptions, type ServerLimits } from '../config/limits.js'
import { compileOnFirstUse } from './lazy-serializer.js'
import { createLogger, requestLineWriter } from '../logging/logger.js'
import { RecordEachRequest } from './request-log-controller.js'
import { RequestRecorder } from '../control/request-recorder.js'
import { RequestJournal } from '../control/journal.js'
import { OptionsError } from '../config/options.js'
import { registerOpenApi } from '../openapi/swagger.js'
import { countingLinesApi } from '../device-api/routes.js'
import { API_PREFIX } from '../contract/paths.js'
import { CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, CountingLineSchema, ErrorEnvelopeSchema } from '../contract/schemas.js'
import type { TlsCredentials } from '../config/tls.js'
import { targetProxyApi } from '../target-proxy/proxy-routes.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'

/** The device an app serves by itself, given whole or by its parts. */
export type AppDevice = {
  store: DataStore
  tokens: TokenPolicy
  cors: CorsPolicy
  /** Faults, latency, the rate limit and the request journal of this device; a fresh one on the store and tokens when absent. */
  control?: MockControl
} | {
  /** A device made already, e.g. the first of a fleet. */
  device: Device
}

export type AppDependencies = AppDevice & {
  /** Bytes of request line and headers together; also bounds how long an id in the path may be. */
  maxHeaderSize: number
  /** Time-outs and the connection cap; each one missing takes its default. */
  limits?: Partial<ServerLimits>
  logger?: FastifyBaseLogger
  /** Serve HTTPS with this certificate and key instead of plain HTTP. */
  https?: TlsCredentials
  /** Turns the admin API on under /__admin/, for callers with this bearer token; no device's tokens may take it. */
  adminToken?: string
  /**
   * Serves a fleet's admin API instead of one device's: the devices' list and fleet-wide verbs under /__admin,
   * each device's admin API under /__admin/devices/{name}. Needs adminToken.
   */
  fleet?: FleetAdmin
  /** Forward /nvr/v1 to the target, a real NVR, instead of serving the store; the target decides who is let in. */
  proxy?: TargetProxy
  /** The schedules' clock when a test moves it by hand: POST /__admin/clock advances it. */
  manualClock?: HandClock
}

/** The app and how more listeners are added to it. */
export interface ServingApp {
  app: FastifyInstance
  /** The listener on app.server: its own device's API and the admin API when it is on; a fleet's admin API alone. */
  listener: DevicePort
  /** A new listener of the same app, for this role; closed when the app closes. */
  addListener: (role: Omit<ListenerRole, 'gate'>) => DevicePort
}

/** The Fastify instance with every plugin in the order that matters. It never listens. */
export async function buildApp (dependencies: AppDependencies): Promise<FastifyInstance> {
  return (await buildServingApp(dependencies)).app
}

/**
 * The app, built once, and its listeners: each device listens on its own server, and every hook, plugin and
 * the fast path read the device's state from the request, so a fleet costs a listener and a state per device.
 */
export async function buildServingApp (dependencies: AppDependencies): Promise<ServingApp> {
  const { maxHeaderSize, limits: someLimits, logger, https, adminToken, fleet, proxy, manualClock } = dependencies
  const ownDevice = 'device' in dependencies ? dependencies.device : deviceOf(dependencies)
  const adminTokens = adminToken === undefined ? undefined : new TokenPolicy([adminToken])
  if (adminToken !== undefined) refuseAdminTokenOpening(ownDevice, adminToken)
  const guardArea = guardAreas(adminTokens === undefined ? [] : [adminArea(adminTokens)])
  const limits = { ...DEFAULT_LIMITS, ...someLimits }
  const serverOptions = nodeServerOptions(maxHeaderSize, limits)
  const nextRequestId = countRequests()
  const fastPath = new FastPath({ nextRequestId })
  // A fleet's own listener is its control address; its devices listen through addListener.
  const ownRole: ListenerRole = { device: ownDevice, api: fleet === undefined, admin: true, gate: null }
  const roleOfRequest = (request: FastifyRequest): ListenerRole => roleOf(request.raw, ownRole)
  let settings: ServerSettings | undefined
  let fastifyHandler: FastifyServerFactoryHandler | undefined
  // Without a logger Fastify never calls the log controller, which records the journal: a silent one then.
  const appLogger = logger ?? createLogger({ logLevel: 'silent', prettyLogs: false })
  // A fleet's control address is no device: its requests (admin calls, never journaled) are logged without a device's name.
  const controlRecorder = fleet === undefined ? undefined : new RequestRecorder(new RequestJournal(0))
  const recorderOf = (request: FastifyRequest): RequestRecorder => {
    const role = roleOfRequest(request)
    return role === ownRole && controlRecorder !== undefined ? controlRecorder : role.device.control.recorder
  }
  // A fleet device's request log (faults, errors) names the device, as its request lines do.
  const logOfListener: FastifyServerOptions['childLoggerFactory'] = (log, bindings, options, raw) => (roleOf(raw as IncomingMessage, ownRole).log ?? log).child(bindings, options)
  const app = Fastify({
    loggerInstance: appLogger,
    logController: new RecordEachRequest(recorderOf),
    ...(fleet === undefined ? {} : { childLoggerFactory: logOfListener }),
    serverFactory: function createServer (handler, options) {
      fastifyHandler = handler
      settings = { serverOptions, https, keepAliveTimeout: options.keepAliveTimeout as number, requestTimeout: options.requestTimeout as number, connectionTimeout: options.connectionTimeout as number }
      return createListenerServer(ownRole, fastPath, handler, settings)
    },
    genReqId: nextRequestId,
    ...(https === undefined ? {} : { https }),
    requestTimeout: limits.requestTimeout,
    bodyLimit: BODY_LIMIT_BYTES,
    keepAliveTimeout: limits.keepAliveTimeout,
    // While closing, a request on an open connection is answered (with Connection: close), not given Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkErrorOf(roleOfRequest, guardArea)
  }).withTypeProvider<TypeBoxTypeProvider>()
  // app.log is Fastify's child of the logger given: the quick request line writer is the logger's own, as is a device's.
  const writeAppRequestLine = requestLineWriter(appLogger)
  const logRequestsOf = (recorder: RequestRecorder, log: FastifyBaseLogger | undefined) => {
    if (log === undefined) recorder.logTo(app.log, writeAppRequestLine)
    else recorder.logTo(log, requestLineWriter(log))
  }
  logRequestsOf(controlRecorder ?? ownDevice.control.recorder, undefined)
  app.addHook('preClose', function leaveTheFastPath (done) {
    fastPath.stop()
    done()
  })

  // Set on every request up front, so requests keep one shape whether a fault applies or not.
  app.decorateRequest('injectedFault', null)
  app.decorateRequest('device', { getter () { return roleOfRequest(this).device } })
  answerHttpEdgeCases(app)
  capConnections(app.server, limits.maxConnections, app.log)
  const trackConnections = closeConnectionsWhenDone(app, serverOptions.headersTimeout || limits.requestTimeout)
  const listeners = new Set<DevicePort>()
  const listener = new DevicePort(ownRole, app.server)
  listeners.add(listener)
  // After the hook above, which lets the requests already sent arrive first.
  let closed: Promise<unknown> = Promise.resolve()
  app.addHook('preClose', function closeListeners (done) {
    closed = Promise.all([...listeners].map(async each => await each.close()))
    done()
  })
  app.addHook('onClose', async function untilListenersClosed () { await closed })
  app.setErrorHandler(handleError)
  app.setNotFoundHandler(handleNotFound)

  for (const schema of [CountingLineSchema, CountingLineEnvelopeSchema, CountingLineListEnvelopeSchema, ErrorEnvelopeSchema]) {
    app.addSchema(schema)
  }
  app.setSerializerCompiler(compileOnFirstUse(app))
  app.addHook('onRequest', checkEveryRequestOf(roleOfRequest, guardArea))
  const currentDocument = await registerOpenApi(app)
  await registerApiPage(app, currentDocument)

  registerHealthz(app, proxy)

  if (proxy === undefined) await app.register(countingLinesApi, { prefix: API_PREFIX })
  else await app.register(targetProxyApi, { prefix: API_PREFIX, proxy, faults: ownDevice.control.faultControl })
  if (adminTokens !== undefined) {
    if (fleet === undefined) await app.register(adminApi, { prefix: ADMIN_PREFIX, tokens: adminTokens, deviceOf: request => request.device, sharesDevicePort: true, ...(manualClock === undefined ? {} : { manualClock }) })
    else await registerFleetAdmin(app, adminTokens, fleet)
  }
  // Beside the admin plugin, not in it: the page's files are open, its calls are not.
  if (adminToken !== undefined) await registerDashboard(app)

  function addListener (role: Omit<ListenerRole, 'gate'>): DevicePort {
    if (adminToken !== undefined) refuseAdminTokenOpening(role.device, adminToken)
    logRequestsOf(role.device.control.recorder, role.log)
    // One role object for the server and the port: the port sets its gate, the server reads it.
    const portRole: ListenerRole = { ...role, gate: null }
    // Made by Fastify's server factory, which ran when the app was made.
    const server = createListenerServer(portRole, fastPath, fastifyHandler as FastifyServerFactoryHandler, settings as ServerSettings)
    server.on('clientError', answerClientError)
    answerServerEdgeCases(server)
    capConnections(server, limits.maxConnections, app.log)
    trackConnections(server)
    const added = new DevicePort(portRole, server)
    listeners.add(added)
    return added
  }
  return { app, listener, addListener }
}

function deviceOf ({ store, tokens, cors, control = new MockControl({ store, access: tokens }) }: Exclude<AppDevice, { device: Device }>): Device {
  return new Device({ name: 'nvr', store, tokens, cors, control })
}

function refuseAdminTokenOpening (device: Device, adminToken: string): void {
  if (device.tokens.judge(`Bearer ${adminToken}`) === 'accepted') {
    throw new OptionsError('option adminToken must differ from every token: the admin token must never open the device API')
  }
}

/** Request ids as Fastify makes them by default (req-1, req-2, …), shared with the fast path. */
function countRequests (): () => string {
  let count = 0
  return function nextRequestId () {
    // Kept a small integer, as Fastify does, so the counter stays fast.
    count = (count + 1) & 0x7fffffff
    return `req-${count.toString(36)}`
  }
}
