import { EventEmitter } from 'node:events'
import { statSync, watch, type FSWatcher } from 'node:fs'
import { basename, dirname } from 'node:path'
import { clearTimeout, setTimeout } from 'node:timers'
import type { FastifyBaseLogger } from 'fastify'
import { prepareServedData, type DataStore } from './data-store.js'
import { describeDiff, diffDatasets, type DatasetDiff } from './dataset-diff.js'
import { loadFixtures } from './fixtures.js'
import type { Dataset } from './dataset.js'
import { FixtureError } from '../errors/errors.js'

/** Quiet time after the last change before reloading: an editor's save is often several writes. */
export const WATCH_DEBOUNCE_MS = 100

/** What a FixtureWatcher watches, where it puts good data, and where it reports. */
export interface WatchOptions {
  /** The fixture file or folder, as given at start-up. */
  path: string
  /** Where a good reload goes: the store of every device that serves these files. */
  stores: readonly DataStore[]
  log: FastifyBaseLogger
  /** Quiet time before a reload, in milliseconds. */
  debounceMs?: number
}

interface WatchEvents {
  /** A reload was served; with what changed. */
  reload: [DatasetDiff]
  /** A reload was refused; the last good data is still served. */
  reject: [Error]
}

/**
 * Reloads fixtures into the store when they change on disk. A file is watched through its folder,
 * because editors often save by writing a new file and renaming it over the old one.
 */
export class FixtureWatcher extends EventEmitter<WatchEvents> {
  readonly #path: string
  readonly #stores: readonly DataStore[]
  // What the files held at the last good load: what a reload says has changed.
  #loaded: Dataset
  readonly #log: FastifyBaseLogger
  readonly #watcher: FSWatcher
  #timer: NodeJS.Timeout | undefined
  #running: Promise<void> | undefined
  #queued: Promise<void> | undefined

  constructor ({ path, stores, log, debounceMs = WATCH_DEBOUNCE_MS }: WatchOptions) {
    super()
    this.#path = path
    this.#stores = stores
    this.#loaded = (stores[0] as DataStore).current.dataset
    this.#log = log
    const isFolder = statSync(path).isDirectory()
    const ownName = basename(path)
    // A folder reports its own name when it is deleted or renamed: reloading then says what went wrong.
    // Kubernetes updates a mounted ConfigMap at once by renaming its `..data` link: the files' names never show.
    const relevant = (name: string | null) => name === null || name === ownName || name.startsWith('..') ||
      (isFolder && name.endsWith('.json') && !name.startsWith('.'))
    this.#watcher = watch(isFolder ? path : dirname(path), { persistent: false }, (_event, name) => {
      if (!relevant(name)) return
      clearTimeout(this.#timer)
      this.#timer = setTimeout(() => this.reload(), debounceMs)
    })
    /* c8 ignore next 3: the OS reports a watch error only when the watched folder turns unreadable, which no test can stage portably */
    this.#watcher.on('error', error => {
      this.#log.error({ err: error }, `stopped watching ${path}: ${error.message}`)
    })
    this.#log.info({ watching: path }, `watching ${path} for changes`)
  }

  /** Reloads now. One reload runs at a time; calls meanwhile share one more reload after it. */
  reload (): Promise<void> {
    if (this.#running === undefined) {
      this.#running = this.#load().finally(() => { this.#running = undefined })
      return this.#running
    }
    this.#queued ??= this.#running.then(() => {
      this.#queued = undefined
      return this.reload()
    })
    return this.#queued
  }

  /** Stops watching, then waits for any reload already started. */
  async close (): Promise<void> {
    clearTimeout(this.#timer)
    this.#watcher.close()
    await (this.#queued ?? this.#running)
  }

  async #load (): Promise<void> {
    let dataset
    try {
      dataset = await loadFixtures(this.#path)
    } catch (error) {
      this.#refuse(error as Error)
      return
    }
    // What the files held before, whatever a device serves meanwhile (use(), drift).
    const diff = diffDatasets(this.#loaded, dataset)
    this.#loaded = dataset
    // The files now hold the start-up data: a reset returns to them, not to what they held at start.
    const served = prepareServedData(dataset)
    for (const store of this.#stores) store.rebase(served)
    const changes = Object.fromEntries(Object.entries(diff).map(([kind, list]) => [kind, list.length]))
    this.#log.info({ changes }, `fixtures reloaded: ${describeDiff(diff)}`)
    this.emit('reload', diff)
  }

  #refuse (error: Error): void {
    // The same text as a failed start, so an edit reads the same whether it stops a start or a reload.
    /* c8 ignore next 2: only a folder vanishing between stat and readdir fails outside FixtureError, a race no test can stage */
    const problems = error instanceof FixtureError ? error.problems : undefined
    const reason = error instanceof FixtureError ? error.message : `cannot read ${this.#path}: ${error.message}`
    this.#log.error({ problems }, `fixtures not reloaded, the last good data is still served. ${reason}`)
    this.emit('reject', error)
  }
}
