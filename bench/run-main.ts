/** Runs a script's main function; a failure is one line on stderr and exit code 1, not a stack trace. */
export async function runMain (name: string, main: () => Promise<void>): Promise<void> {
  try {
    await main()
  } catch (error) {
    process.stderr.write(`${name}: ${(error as Error).message}\n`)
    process.exitCode = 1
  }
}
