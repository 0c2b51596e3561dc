import { existsSync, statSync } from 'node:fs'
import t from 'tap'
import { DOC_PAGES, readDoc, ROOT } from '../helpers/docs.js'

/** Text outside fenced code blocks and inline code, where a link is a link. */
function prose (page: string): string {
  return page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').replace(/`[^`\n]*`/g, '')
}

/** The anchor GitHub gives a heading: lowercase, punctuation dropped, spaces to '-', repeats numbered. */
function headingSlugs (page: string): Set<string> {
  const slugs = new Set<string>()
  const seen = new Map<string, number>()
  for (const [, heading] of page.replace(/^```[^\n]*\n[\s\S]*?^```$/gm, '').matchAll(/^#{1,6} +(.+?) *#*$/gm)) {
    const base = (heading ?? '').toLowerCase().replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/ /g, '-')
    const count = seen.get(base) ?? 0
    seen.set(base, count + 1)
    slugs.add(count === 0 ? base : `${base}-${count}`)
  }
  return slugs
}

/** Every link target of a page that is not a web address: a path, a #fragment, or both. */
function relativeLinks (page: string): string[] {
  const targets = [...prose(page).matchAll(/\]\(([^)\s]+)(?: "[^"]*")?\)/g)].map(match => match[1] ?? '')
  return targets.filter(target => !/^[a-z][a-z0-9+.-]*:/i.test(target))
}

t.test('GitHub\'s heading anchors', async t => {
  t.strictSame([...headingSlugs('# Browsers: CORS, the OpenAPI document\n## `Prefer` header\n## Stopping\n## Stopping\n```\n# not a heading\n```\n')],
    ['browsers-cors-the-openapi-document', 'prefer-header', 'stopping', 'stopping-1'])
})

t.test('the docs have relative links to check', async t => {
  t.ok(DOC_PAGES.includes('README.md') && DOC_PAGES.includes('docs/architecture.md'))
  t.ok(relativeLinks(readDoc('README.md')).length > 10)
})

for (const path of DOC_PAGES) {
  t.test(`every relative link of ${path} leads somewhere`, async t => {
    const base = new URL(path, ROOT)
    for (const target of relativeLinks(readDoc(path))) {
      const [file = '', fragment] = target.split('#')
      const resolved = file === '' ? base : new URL(file, base)
      t.ok(resolved.href.startsWith(ROOT.href), `${target} stays inside the project`)
      if (!existsSync(resolved)) {
        t.fail(`${target}: no such file`)
        continue
      }
      if (fragment === undefined) continue
      t.ok(statSync(resolved).isFile() && resolved.pathname.endsWith('.md'), `${target}: a #fragment points into a Markdown page`)
      t.ok(headingSlugs(readDoc(resolved.pathname.slice(ROOT.pathname.length))).has(fragment), `${target}: the page has that heading`)
    }
  })
}
