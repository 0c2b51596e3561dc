/** NODE_OPTIONS as this process got it, without the test runner's process-tracking import. */
const OWN_NODE_OPTIONS = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(option => option !== '' && !option.includes('@tapjs/processinfo')).join(' ')

/**
 * The command line that runs a program outside the test runner's process tracking. The runner puts its
 * import into NODE_OPTIONS of every process a test spawns, whatever env the test gives; it costs over a second
 * of CPU per Node process, more for a large bundle, and counts only for code run from src/. So a bundle,
 * tsc, npm or Vitest goes through env(1), which sets NODE_OPTIONS for it (by default, this process's own
 * without the runner's import).
 */
export function untracked (command: string, args: readonly string[], nodeOptions = OWN_NODE_OPTIONS): [string, string[]] {
  return ['env', [`NODE_OPTIONS=${nodeOptions}`, command, ...args]]
}
