import type { FastifyInstance } from 'fastify'
import type { DataStore } from '../data/data-store.js'
import { FixtureWatcher } from '../data/watch.js'

/**
 * Serves each edit of a fixture file or folder to every device that serves it, a single mock-nvr's or a fleet's,
 * until the app closes; a bad edit keeps each device's last good data.
 */
export function watchFixtures (app: FastifyInstance, storesByPath: ReadonlyMap<string, readonly DataStore[]>): void {
  const watchers = [...storesByPath].map(([path, stores]) => new FixtureWatcher({ path, stores, log: app.log }))
  app.addHook('onClose', async function stopWatching () {
    await Promise.all(watchers.map(async watcher => await watcher.close()))
  })
}
