import type { FastifyInstance } from 'fastify'
import { buildApp } from '../app/build-app.js'
import { DataStore } from '../data/data-store.js'
import { type CameraLines } from '../data/dataset.js'
import { CorsPolicy } from '../wire/cors.js'
import { TokenPolicy } from '../wire/token-policy.js'
import { observe, type Observation } from './observation.js'

/**
 * mock-nvr's own answers, computed in-process: the app on the data just read from the target, with the
 * target's token as the one accepted, asked the very requests the target was asked.
 */
export class MockAnswers {
  readonly #app: FastifyInstance

  private constructor (app: FastifyInstance) {
    this.#app = app
  }

  static async on (cameras: CameraLines[], token: string): Promise<MockAnswers> {
    const app = await buildApp({ store: new DataStore(cameras), tokens: new TokenPolicy([token]), cors: new CorsPolicy(), maxHeaderSize: 65536 })
    return new MockAnswers(app)
  }

  async observe (method: string, path: string, headers: Record<string, string>): Promise<Observation> {
    const response = await this.#app.inject({ method: method as 'GET', url: path, headers, ...(method === 'GET' || method === 'HEAD' || method === 'OPTIONS' ? {} : { payload: '' }) })
    return observe(response.statusCode, response.headers, response.rawPayload)
  }

  close (): Promise<void> {
    return this.#app.close()
  }
}
