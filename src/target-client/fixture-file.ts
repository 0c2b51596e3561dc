import { randomBytes } from 'node:crypto'
import { link, open, rename, stat, unlink } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import type { FixtureData } from '../contract/schemas.js'
import { FixtureWriteError } from '../errors/errors.js'

/** Fixture data as a file holds it: two-space JSON and a final newline. */
export function fixtureText (data: FixtureData): string {
  return `${JSON.stringify(data, null, 2)}\n`
}

/**
 * Writes the file atomically: into a temporary file beside it, flushed to disk, then moved into place in
 * one step, so a crash or Ctrl-C leaves the old file or the new one, never half of one. Without replace,
 * an existing file is kept (the move refuses to overwrite it).
 */
export async function writeFileAtomically (file: string, text: string, { replace = false } = {}): Promise<void> {
  const temporary = join(dirname(file), `.${basename(file)}.${randomBytes(6).toString('hex')}.tmp`)
  try {
    const handle = await open(temporary, 'wx', 0o644)
    try {
      await handle.writeFile(text)
      await handle.sync()
    } finally {
      await handle.close()
    }
    if (replace) await rename(temporary, file)
    else await link(temporary, file)
  } catch (error) {
    throw new FixtureWriteError(describeWriteError(file, (error as NodeJS.ErrnoException).code))
  } finally {
    await unlink(temporary).catch(() => {})
  }
}

/**
 * Refuses, before any work, a file that writeFileAtomically would refuse at the end: one that exists
 * (without replace), a folder, or one whose folder does not exist. The write checks again.
 */
export async function checkWritable (file: string, { replace = false } = {}): Promise<void> {
  const [target, folder] = await Promise.all([stat(file).catch(() => undefined), stat(dirname(file)).catch(() => undefined)])
  if (target?.isDirectory() === true) throw new FixtureWriteError(`${file} is a folder: give a file name`)
  if (target !== undefined && !replace) throw new FixtureWriteError(describeWriteError(file, 'EEXIST'))
  if (folder?.isDirectory() !== true) throw new FixtureWriteError(describeWriteError(file, 'ENOENT'))
}

function describeWriteError (file: string, code: string | undefined): string {
  if (code === 'EEXIST') return `${file} exists already: pass --force to replace it`
  if (code === 'ENOENT') return `${file} cannot be written: its folder does not exist`
  return `${file} cannot be written (${String(code)})`
}
