/** What a PromQL query reads: its selectors (metric name and label matchers) and the labels it groups by. */
export interface QueryParts {
  selectors: Selector[]
  /** The labels named by every `by (…)`, `without (…)`, `on (…)`, `ignoring (…)` and `group_left (…)`. */
  grouping: string[]
  /** Whether an aggregation without `by` drops every label (`sum(…)`, `count(…)`). */
  dropsLabels: boolean
}

export interface Selector {
  metric: string
  matchers: Matcher[]
}

export interface Matcher {
  label: string
  op: '=' | '!=' | '=~' | '!~'
  value: string
}

/** Aggregations that keep only their `by` labels; topk and bottomk keep their series whole. */
const AGGREGATIONS = new Set(['sum', 'count', 'min', 'max', 'avg', 'group', 'stddev', 'stdvar', 'quantile'])
const LABEL_LISTS = new Set(['by', 'without', 'on', 'ignoring', 'group_left', 'group_right'])
const KEYWORDS = new Set(['or', 'and', 'unless', 'bool', 'offset'])
const NAME = /[a-zA-Z_:][\w:]*/y
const NUMBER = /\d*\.?\d+(?:e[+-]?\d+)?/iy
const MATCHER = /\s*([a-zA-Z_]\w*)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"\s*(?:,|$)/y

/**
 * The parts of a query, for the forms dashboards use: selectors with or without matchers, ranges, functions,
 * aggregations with `by` or `without` before or after their arguments, binary operators and numbers. Grafana's
 * variables (`$device`, `$__rate_interval`) may stand in a matcher's value or a range. Throws on what it cannot
 * read, so a query it misreads fails a test instead of passing it.
 */
export function queryParts (query: string): QueryParts {
  const parts: QueryParts = { selectors: [], grouping: [], dropsLabels: false }
  let at = 0
  while (at < query.length) {
    const char = query[at] as string
    if (/[\s(),+\-*/^%<>=!]/.test(char)) at++
    else if (char === '[') at = closing(query, at) + 1
    else if (/[\d.]/.test(char)) at += token(NUMBER, query, at)
    else at = afterName(query, at, parts)
  }
  return parts
}

/** Reads the name at `at` and what it starts: a grouping, an aggregation, a function or a selector; returns where it ends. */
function afterName (query: string, at: number, parts: QueryParts): number {
  const name = query.slice(at, at + token(NAME, query, at))
  const end = at + name.length
  const next = end + (query.slice(end).length - query.slice(end).trimStart().length)
  if (LABEL_LISTS.has(name) && query[next] === '(') {
    const close = closing(query, next)
    parts.grouping.push(...query.slice(next + 1, close).split(',').map(label => label.trim()).filter(label => label !== ''))
    return close + 1
  }
  if (KEYWORDS.has(name) || LABEL_LISTS.has(name)) return end
  if (AGGREGATIONS.has(name)) {
    const grouped = /^\s*(by|without)\b/.test(query.slice(end)) || (query[next] === '(' && /^\s*(by|without)\b/.test(query.slice(closing(query, next) + 1)))
    parts.dropsLabels ||= !grouped
    return end
  }
  if (query[next] === '(') return end
  const selector: Selector = { metric: name, matchers: [] }
  parts.selectors.push(selector)
  if (query[next] !== '{') return end
  const close = closing(query, next)
  selector.matchers = matchers(query.slice(next + 1, close), query)
  return close + 1
}

/** The length of the token `pattern` (sticky) finds at `at`; throws when there is none. */
function token (pattern: RegExp, query: string, at: number): number {
  pattern.lastIndex = at
  const found = pattern.exec(query)
  if (found === null) throw new Error(`cannot read ${JSON.stringify(query.slice(at))} in ${query}`)
  return found[0].length
}

function matchers (list: string, query: string): Matcher[] {
  const found: Matcher[] = []
  MATCHER.lastIndex = 0
  while (MATCHER.lastIndex < list.length) {
    const match = MATCHER.exec(list)
    if (match === null) throw new Error(`cannot read the matchers {${list}} in ${query}`)
    found.push({ label: match[1] as string, op: match[2] as Matcher['op'], value: (match[3] as string).replace(/\\(.)/g, '$1') })
  }
  return found
}

const CLOSE: Record<string, string> = { '(': ')', '[': ']', '{': '}' }

/** The index of the bracket that closes the one at `open`, skipping quoted strings. */
function closing (query: string, open: number): number {
  const opening = query[open] as string
  let depth = 0
  for (let at = open; at < query.length; at++) {
    const char = query[at]
    if (char === '"') at = query.indexOf('"', at + 1) === -1 ? query.length : query.indexOf('"', at + 1)
    else if (char === opening) depth++
    else if (char === CLOSE[opening] && --depth === 0) return at
  }
  throw new Error(`unclosed ${opening} in ${query}`)
}
