// The oldest Node.js the package runs on as installed: from 20.19 on, require() loads the ES-module-only
// packages some dependencies reach (package.json "engines" says the same, and a test keeps the two equal).
export const MINIMUM_NODE = '20.19.0'

function parts (version: string): number[] {
  return version.split('.').map(part => Number.parseInt(part, 10) || 0)
}

/** The one-line refusal for a Node.js older than MINIMUM_NODE, or undefined when this one is new enough. */
export function oldNodeMessage (nodeVersion: string): string | undefined {
  const have = parts(nodeVersion)
  for (const [index, needed] of parts(MINIMUM_NODE).entries()) {
    const difference = (have[index] ?? 0) - needed
    if (difference > 0) return undefined
    if (difference < 0) return `mock-nvr needs Node.js ${MINIMUM_NODE} or newer; this is Node.js ${nodeVersion}.`
  }
  return undefined
}

/** Stops the process with that line on stderr when this Node.js is too old; nothing otherwise. */
export function refuseOldNode (nodeVersion: string, writeError: (line: string) => void, exit: (code: number) => void): void {
  const message = oldNodeMessage(nodeVersion)
  if (message === undefined) return
  writeError(`${message}\n`)
  exit(1)
}

/** Throws that line as an Error when this Node.js is too old: the library's refusal, where the CLI's exits. */
export function requireNode (nodeVersion: string): void {
  const message = oldNodeMessage(nodeVersion)
  if (message !== undefined) throw new Error(message)
}
