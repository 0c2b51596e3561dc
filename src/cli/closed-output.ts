/** A stream the CLI writes to: process.stdout or process.stderr. */
interface Output {
  on: (event: 'error', listener: (error: NodeJS.ErrnoException) => void) => unknown
}

/**
 * Lets a one-shot command (--help, --version, openapi, verify, a usage error) end quietly when its reader goes away,
 * as in `mock-nvr --help | head -1`: the rest of its output is dropped and the exit code stays its own, as Unix tools
 * do. Any other error, and a closed output once a server runs (`isServing`), stays an uncaught error, which
 * stopGracefully turns into a stop.
 */
export function endQuietlyWhenClosed (output: Output, isServing: () => boolean): void {
  output.on('error', error => {
    if (error.code === 'EPIPE' && !isServing()) return
    throw error
  })
}
