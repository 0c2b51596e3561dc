// Imported first by the CLI, before any device exists: three of V8's heuristics that cost a mock under load more
// than they save (docs/performance.md, "The garbage collector's share"). The flags are read as the heap works,
// so setting them here is as if they were given to node. The library leaves its host's V8 as it is.
import { setFlagsFromString } from 'node:v8'

export const GARBAGE_COLLECTOR_FLAGS = [
  // V8 gives an allocation site's objects old space from birth once most of them outlive a collection. Making
  // thousands of devices teaches it that of sites every request uses later, whose objects then die in old space:
  // a 10,000-device fleet's heap grew to four times what lived in it.
  '--no-allocation-site-pretenuring',
  // With old space near its limit, V8 posted a task to start marking at each step of allocation, again and again
  // under load: a quarter of a small answer's time. Marking still starts, incremental and concurrent, when space runs out.
  '--no-incremental-marking-task',
  // After each full collection V8 lets old space grow to as much as four times what lived before the next: under
  // load, a fleet's connections that outlive a young collection fill that room. Half again as much held a
  // 10,000-device fleet under load to some 350 MB instead of 493, for a few per cent more CPU a request.
  '--heap-growing-percent=50'
] as const

/** Sets the flags on this process's V8. */
export function tuneGarbageCollector (setFlags: (flag: string) => void = setFlagsFromString): void {
  for (const flag of GARBAGE_COLLECTOR_FLAGS) setFlags(flag)
}

tuneGarbageCollector()
