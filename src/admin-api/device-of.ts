import type { FastifyRequest } from 'fastify'
import type { Device } from '../device/device.js'

/** The device an admin request acts on: its own, or the one a fleet's path names; throws an ApiError when there is none. */
export type DeviceOf = (request: FastifyRequest) => Device
