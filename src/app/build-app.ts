import type { TypeBoxTypeProvider } from '@fastify/type-provider-typebox'
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify'
import { adminArea, guardAreas } from '../wire/area-guard.js'
import { registerApiPage } from '../openapi/api-page.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { answerClientError } from './client-errors.js'
import { RealClock } from '../util/real-clock.js'
import type { CorsPolicy } from '../wire/cors.js'
import type { DataStore } from '../data/data-store.js'
import { FastPath } from './fast-path.js'
import { answerHttpEdgeCases } from './http-edges.js'
import { answerFrameworkErrorOf, checkEveryRequestOf } from './request-checks.js'
import { registerHealthz } from './healthz.js'
import type { DevicePort } from '../device/device-port.js'
import { Device } from '../device/device.js'
import type { FleetAdmin } from '../admin-api/fleet-routes.js'
import type { HandClock } from '../admin-api/routes.js'
import { BODY_LIMIT_BYTES, DEFAULT_LIMITS, nodeServerOptions, type ServerLimits } from '../config/limits.js'
import { OptionsError } from '../errors/errors.js'
import { registerOpenApi } from '../openapi/openapi-route.js'
import type { TlsCredentials } from '../config/tls.js'
import type { TargetProxy } from '../target-proxy/target-proxy.js'
import { AppListeners, type NewListener } from './app-listeners.js'
import { RequestLogging } from './request-logging.js'
import { registerErrorAnswers } from './error-answers.js'
import { registerApiArea } from './api-area.js'
import { registerAdminArea } from './admin-area.js'

/** The device an app serves by itself, given whole or by its parts. */
export type AppDevice = {
  store: DataStore
  tokens: TokenPolicy
  cors: CorsPolicy
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
  /** The devices' clock when a test moves it by hand: POST /__admin/clock advances it. */
  manualClock?: HandClock
}

/** The app and how more listeners are added to it. */
export interface ServingApp {
  app: FastifyInstance
  /** The listener on app.server: its own device's API and the admin API when it is on; a fleet's admin API alone. */
  listener: DevicePort
  /** A new listener of the same app, for this role; closed when the app closes. */
  addListener: (role: NewListener) => DevicePort
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
  const { maxHeaderSize, logger, https, adminToken, fleet, proxy, manualClock } = dependencies
  const ownDevice = 'device' in dependencies ? dependencies.device : deviceOf(dependencies)
  const adminTokens = adminToken === undefined ? undefined : new TokenPolicy([adminToken])
  refuseAdminTokenOpening(ownDevice, adminToken)
  const guardArea = guardAreas(adminTokens === undefined ? [] : [adminArea(adminTokens)])
  const limits = { ...DEFAULT_LIMITS, ...dependencies.limits }
  const nextRequestId = countRequests()
  const fastPath = new FastPath({ nextRequestId })
  // A fleet's own listener is its control address; its devices listen through addListener.
  const listeners = new AppListeners({ device: ownDevice, api: fleet === undefined, admin: true, gate: null }, fastPath, nodeServerOptions(maxHeaderSize, limits), https)
  const logging = new RequestLogging(listeners.ownRole, fleet !== undefined, logger)
  const app = Fastify({
    ...logging.fastifyOptions(),
    serverFactory: listeners.serverFactory,
    genReqId: nextRequestId,
    ...(https === undefined ? {} : { https }),
    requestTimeout: limits.requestTimeout,
    bodyLimit: BODY_LIMIT_BYTES,
    keepAliveTimeout: limits.keepAliveTimeout,
    // While closing, a request on an open connection is answered (with Connection: close), not given Fastify's own 503 body.
    return503OnClosing: false,
    routerOptions: { ignoreTrailingSlash: true, maxParamLength: maxHeaderSize },
    clientErrorHandler: answerClientError,
    frameworkErrors: answerFrameworkErrorOf(listeners.roleOfRequest, guardArea)
  }).withTypeProvider<TypeBoxTypeProvider>()
  logging.register(app)
  // Set on every request up front, so requests keep one shape whether a fault applies or not.
  app.decorateRequest('injectedFault', null)
  app.decorateRequest('device', { getter () { return listeners.roleOfRequest(this).device } })
  answerHttpEdgeCases(app)
  const listener = listeners.register(app, limits)
  registerErrorAnswers(app)
  app.addHook('onRequest', checkEveryRequestOf(listeners.roleOfRequest, guardArea))
  registerApiPage(app, registerOpenApi(app))
  registerHealthz(app, proxy, fleet === undefined ? undefined : { isControl: request => !listeners.roleOfRequest(request).api, roster: fleet.roster })
  await registerApiArea(app, proxy)
  if (adminTokens !== undefined) await registerAdminArea(app, { tokens: adminTokens, fleet, manualClock, device: ownDevice })

  function addListener (role: NewListener): DevicePort {
    refuseAdminTokenOpening(role.device, adminToken)
    logging.logRequestsOf(role.device.recorder, role.log)
    return listeners.add(role)
  }
  return { app, listener, addListener }
}

function deviceOf ({ store, tokens, cors }: Exclude<AppDevice, { device: Device }>): Device {
  return new Device({ name: 'nvr', store, tokens, cors, clock: new RealClock() })
}

function refuseAdminTokenOpening (device: Device, adminToken: string | undefined): void {
  if (adminToken !== undefined && device.admits(adminToken)) {
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
