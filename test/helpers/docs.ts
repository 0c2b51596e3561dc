import { readdirSync, readFileSync } from 'node:fs'

/** The project's folder, as a URL ending in '/'. */
export const ROOT = new URL('../../', import.meta.url)

/** The Markdown pages of the documentation, relative to ROOT: the front page, then every page of docs/. */
export const DOC_PAGES = ['README.md', ...readdirSync(new URL('docs/', ROOT)).filter(name => name.endsWith('.md')).sort().map(name => `docs/${name}`)]

/** The text of a page, by its path relative to ROOT (`README.md`, `docs/fixtures.md`). */
export function readDoc (path: string): string {
  return readFileSync(new URL(path, ROOT), 'utf8')
}

/** The part of a page between `<!-- section: NAME -->` and `<!-- /section: NAME -->`. */
export function docSection (page: string, name: string): string {
  const start = page.indexOf(`<!-- section: ${name} -->`)
  const end = page.indexOf(`<!-- /section: ${name} -->`)
  if (start === -1 || end === -1) throw new Error(`no section ${name}`)
  return page.slice(start, end)
}
