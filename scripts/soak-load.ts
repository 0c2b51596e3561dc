import { Agent, request, type ClientRequest } from 'node:http'
import { connect } from 'node:net'

export const TOKEN = 'soak-token'
const AUTH = { authorization: `Bearer ${TOKEN}` }

/** The routes under load, each with the status the contract gives it. */
export const ROUTES = [
  { name: 'list (1000 lines)', path: '/nvr/v1/cameras/cam-1/counting_lines', headers: AUTH, status: 200, weight: 1 },
  { name: 'retrieve', path: '/nvr/v1/cameras/cam-2/counting_lines/line-7', headers: AUTH, status: 200, weight: 3 },
  { name: 'unknown camera', path: '/nvr/v1/cameras/cam-none/counting_lines', headers: AUTH, status: 404, weight: 2 },
  { name: 'no token', path: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: {}, status: 401, weight: 2 },
  { name: 'healthz', path: '/healthz', headers: {}, status: 200, weight: 2 }
] as const
const ROTATION = ROUTES.flatMap(route => Array.from({ length: route.weight }, () => route))

export interface RouteStats { ok: number, wrongStatus: number, serverErrors: number, errors: number, latencies: number[] }
export const newStats = (): RouteStats => ({ ok: 0, wrongStatus: 0, serverErrors: 0, errors: 0, latencies: [] })

/** N clients on N keep-alive connections, each sending its next request as soon as the last is answered. */
export class Load {
  readonly stats = new Map(ROUTES.map(route => [route.name, newStats()]))
  /** Requests sent and not settled yet, each with how it settles: 'answered' or the error. */
  readonly inFlight = new Map<ClientRequest, Promise<string>>()
  readonly errorSamples: string[] = []
  #running = true
  readonly #agent: Agent
  readonly #clients: Array<Promise<void>>

  constructor (readonly port: number, connections: number) {
    this.#agent = new Agent({ keepAlive: true, maxSockets: connections, maxFreeSockets: connections })
    this.#clients = Array.from({ length: connections }, (_, client) => this.#client(client))
  }

  /** Sends no more requests from now on. */
  halt (): void {
    this.#running = false
  }

  /** Resolves once every client has its last answer or error. */
  async stop (): Promise<void> {
    this.halt()
    await Promise.all(this.#clients)
    this.#agent.destroy()
  }

  async #client (client: number): Promise<void> {
    for (let turn = client; this.#running; turn++) {
      const route = ROTATION[turn % ROTATION.length] as (typeof ROUTES)[number]
      await this.send(route, this.stats.get(route.name) as RouteStats)
    }
  }

  /** One request; counted in `stats`, held in `inFlight` until it settles. */
  async send (route: (typeof ROUTES)[number], stats: RouteStats): Promise<void> {
    let settle = (_outcome: string) => {}
    const settled = new Promise<string>(resolve => { settle = resolve })
    const started = performance.now()
    const req = request({ host: '127.0.0.1', port: this.port, path: route.path, headers: route.headers, agent: this.#agent }, response => {
      response.resume()
      response.on('end', () => {
        stats.latencies.push(performance.now() - started)
        const status = response.statusCode ?? 0
        if (status >= 500) stats.serverErrors++
        if (status === route.status) stats.ok++
        else stats.wrongStatus++
        settle(status === route.status ? 'answered' : `answered ${status}`)
      })
    })
    this.inFlight.set(req, settled)
    req.on('error', error => {
      stats.errors++
      if (this.errorSamples.length < 5) this.errorSamples.push(`${route.name}: ${error.message}`)
      settle(error.message)
    })
    req.end()
    await settled
    this.inFlight.delete(req)
  }
}

/** Clients that leave mid-answer (on the 1000-line list) or reset their connection, over and over. */
export class Churn {
  aborted = 0
  reset = 0
  #running = true
  readonly #loops: Array<Promise<void>>

  constructor (readonly port: number, clients: number) {
    this.#loops = Array.from({ length: clients }, (_, client) => this.#loop(client % 2 === 0 ? 'abort' : 'reset'))
  }

  halt (): void {
    this.#running = false
  }

  async stop (): Promise<void> {
    this.halt()
    await Promise.all(this.#loops)
  }

  async #loop (kind: 'abort' | 'reset'): Promise<void> {
    while (this.#running) {
      await new Promise<void>(resolve => {
        const socket = connect(this.port, '127.0.0.1')
        socket.on('error', () => {})
        socket.on('close', () => resolve())
        socket.write(`GET ${ROUTES[0].path} HTTP/1.1\r\nHost: soak\r\nAuthorization: ${AUTH.authorization}\r\n\r\n`)
        socket.once('data', () => {
          if (kind === 'abort') {
            this.aborted++
            socket.destroy()
          } else {
            this.reset++
            socket.resetAndDestroy()
          }
        })
      })
    }
  }
}
