import type { FastifyInstance } from 'fastify'
import { FaultSpecSchema } from '../control/faults/fault-spec.js'
import type { DeviceRoster } from '../device/roster.js'
import { mapInSteps } from '../util/in-steps.js'
import { ok, route } from './routing.js'
import { sendStepped, steppedList, type NextItem } from './paging.js'
import type { Fault } from '../control/faults/fault-spec.js'

/**
 * /__admin/faults: every device's faults, one injected on each, all cleared. A spec is checked on the first device:
 * refused there (InvalidFaultError, the 400), it is refused everywhere, and nothing changed. Injecting and clearing go
 * over the devices a slice per turn of the event loop, and answer once every device is done.
 */
export function registerFleetFaults (fleet: FastifyInstance, roster: DeviceRoster): void {
  route(fleet, '/faults', {
    GET: (_request, reply) => sendStepped(reply, () => steppedList(everyFault(roster))),
    POST: async (request, reply) => {
      const faults = await mapInSteps(roster.entries, ({ device }) => ({ device: device.name, ...device.injectFault(request.body) }))
      request.log.info({ devices: faults.length }, 'admin: a fault injected on every device')
      let at = 0
      return sendStepped(reply, () => steppedList(() => faults[at++], 201), 201)
    },
    DELETE: async (request, reply) => {
      await mapInSteps(roster.entries, ({ device }) => device.clearFaults())
      request.log.info('admin: every fault of every device cleared')
      return ok(reply, null)
    }
  }, { schema: { hide: true, body: FaultSpecSchema } })
}

// Every device's faults in the fleet's order, each naming its device, read one at a time.
function everyFault (roster: DeviceRoster): NextItem<{ device: string } & Fault> {
  let device = 0
  let faults: Fault[] = []
  let at = 0
  return function nextFault () {
    while (at === faults.length) {
      const entry = roster.entries[device++]
      if (entry === undefined) return undefined
      faults = entry.device.faults()
      at = 0
    }
    return { device: roster.entries[device - 1]?.device.name as string, ...faults[at++] as Fault }
  }
}
