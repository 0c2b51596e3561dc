import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from 'fastify'

/**
 * What a device's health does to each request reaching its port. While it is open every request goes on
 * untouched (the fast path included); otherwise Fastify's first hook hands each request to it.
 */
export interface RequestGate {
  /** True while requests go on untouched; false while the gate may hold, refuse or delay one. */
  readonly open: boolean
  /** Holds the request unanswered (an unreachable device) and returns true; false when it is not held. */
  hold: (request: FastifyRequest, reply: FastifyReply) => boolean
  /** Lets the request on with done(), refuses it with done(error), or calls done() after a delay. */
  pass: (request: FastifyRequest, reply: FastifyReply, done: HookHandlerDoneFunction) => void
}

/** The gate of a device whose health never changes. */
export const OPEN_GATE: RequestGate = {
  open: true,
  hold: () => false,
  pass: (_request, _reply, done) => done()
}
