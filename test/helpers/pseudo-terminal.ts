import { execFileSync } from 'node:child_process'

/** A word quoted for sh. */
export const quote = (word: string): string => `'${word.replaceAll("'", "'\\''")}'`

/** Whether util-linux's script(1), which runs a command on a pseudo-terminal, is installed. */
export function hasScript (): boolean {
  try {
    execFileSync('script', ['--version'], { stdio: 'ignore' })
    return true
  } catch {
    return false
  }
}
