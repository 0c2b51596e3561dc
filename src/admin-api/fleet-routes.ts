import type { FastifyInstance } from 'fastify'
import { guardAdminArea, ok, route } from './routing.js'
import { adminApi, registerClock, type HandClock } from './routes.js'
import type { TokenPolicy } from '../wire/token-policy.js'
import { refuseUnknownPaths } from '../wire/method-not-allowed.js'
import { apiErrors } from '../wire/errors.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import type { DeviceRoster } from '../device/roster.js'
import { registerDeviceList } from './fleet-devices.js'
import { registerFleetFaults } from './fleet-faults.js'
import { registerFleetJournal } from './fleet-journal.js'

export type { ListedDevice } from './fleet-devices.js'
export { fleetJournal, type FleetJournalEntry } from './fleet-journal.js'

/** What a fleet's admin API needs: its devices. */
export interface FleetAdmin {
  roster: DeviceRoster
  /** The devices' clock, when moved by hand at POST /__admin/clock; the real one when absent. */
  manualClock?: HandClock
}

/**
 * A fleet's admin API on its control address: the list of devices, verbs on every device at once under
 * /__admin, and each device's own admin API (the single mock-nvr's, unchanged) under /__admin/devices/{name}.
 */
export async function registerFleetAdmin (app: FastifyInstance, tokens: TokenPolicy, { roster, manualClock }: FleetAdmin): Promise<void> {
  await app.register(async function fleetAdmin (fleet) {
    guardAdminArea(fleet, tokens)
    registerDeviceList(fleet, roster)
    registerFleetFaults(fleet, roster)
    registerFleetJournal(fleet, roster)
    route(fleet, '/reset', {
      POST: async (request, reply) => {
        await roster.reset()
        request.log.info('admin: every device reset to its start-up data, no faults, an empty journal')
        return ok(reply, null)
      }
    })
    // One clock for every device: the real one, or the manual one POST /__admin/clock moves.
    registerClock(fleet, manualClock)

    await fleet.register(async function deviceAdmin (device) {
      // What is logged of a device's admin call names the device, as its requests' lines do.
      device.addHook('onRequest', function nameTheDevice (request, _reply, done) {
        request.log = request.log.child({ device: (request.params as { name: string }).name })
        done()
      })
      await device.register(adminApi, {
        tokens,
        ownsClock: false,
        deviceOf: request => {
          const { name } = request.params as { name: string }
          const entry = roster.find(name)
          if (entry === undefined) throw apiErrors.deviceNotFound(name)
          return entry.device
        }
      })
    }, { prefix: '/devices/:name' })
    refuseUnknownPaths(fleet)
  }, { prefix: ADMIN_PREFIX })
}
