import { readFileSync } from 'node:fs'

/** The package version, read once; the same relative path holds from src/ and from dist/. */
export const VERSION = (JSON.parse(readFileSync(new URL('../package.json', import.meta.url), 'utf8')) as { version: string }).version
