import { setImmediate, setTimeout } from 'node:timers'
import type { FastifyInstance } from 'fastify'
import { closeAfterAnswer, type HttpSocket } from '../wire/close-after-answer.js'

/**
 * Lets a close finish as soon as the requests in flight are answered. Node closes the idle connections
 * when the server closes, but then stops enforcing its time-outs, and an answer already under way keeps
 * its connection alive: a client that connected without sending yet (a browser's spare connection, a
 * slow-loris) or one that just got its answer would hold the shutdown open for up to the keep-alive time-out.
 * `connections` gives every open connection of the app's servers, as their ports track them.
 */
export function closeConnectionsWhenDone (app: FastifyInstance, waitForRequestMs: number, connections: () => Iterable<HttpSocket>): void {
  app.addHook('preClose', function closeConnectionsWhenDone (done) {
    // Requests routed from now on get Connection: close from Fastify; the ones routed before close after their answer.
    for (const socket of connections()) closeAfterAnswer(socket)
    // A connection without a request yet keeps the time it had to send one, as without the close.
    if (waitForRequestMs > 0) {
      setTimeout(function cutWaitingConnections () {
        for (const socket of connections()) if (!socket._httpMessage) socket.destroy()
      }, waitForRequestMs).unref()
    }
    // Node closes idle connections first thing in close(). Let it first read what has already arrived:
    // a request sent just before the signal is then under way, and answered, rather than reset.
    setImmediate(done)
  })
}
