import type { FastifyInstance } from 'fastify'

/** How often, while closing, connections that have fallen idle are closed. */
const IDLE_SWEEP_MS = 50

/**
 * Closes the app; requests in flight finish first. Node closes the keep-alive connections that are idle
 * when the close begins, but one whose request was still in flight (a delayed answer, say) stays open
 * after answering, until its keep-alive timeout: such connections are closed as soon as they fall idle.
 */
export async function closeGracefully (app: FastifyInstance): Promise<void> {
  const sweep = setInterval(() => { app.server.closeIdleConnections() }, IDLE_SWEEP_MS)
  try {
    await app.close()
  } finally {
    clearInterval(sweep)
  }
}
