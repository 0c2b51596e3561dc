// tsx writes the TypeScript text into its source maps only when it sees NODE_V8_COVERAGE (tsx issue 433),
// and tap's coverage reads every file as empty without it. A variable set when a process or thread starts
// also makes Node write its own copy of that coverage to disk, so it is set only once they run: in the
// module-loader thread, where tsx's hooks run, and in this thread while tsx loads.
import { register } from 'node:module'
import { isMainThread } from 'node:worker_threads'

function whileTsxLoads () {
  if (process.env.NODE_V8_COVERAGE !== undefined) return () => {}
  process.env.NODE_V8_COVERAGE = 'tsx-source-maps'
  return () => { delete process.env.NODE_V8_COVERAGE }
}

if (isMainThread) {
  // Evaluates this file again in the loader thread, which has a copy of the environment of its own.
  register(import.meta.url)
  const restore = whileTsxLoads()
  await import('tsx')
  restore()
} else {
  whileTsxLoads()
}
