import type { FastifyInstance } from 'fastify'
import type { ValueProblem } from '../util/value-errors.js'
import { notValidJson } from '../data/json-syntax.js'

const REFUSED = 'is a key mock-nvr refuses, as it could change what every object inherits; leave it out'

/**
 * JSON bodies as Fastify parses them, keys that could change a prototype refused (`__proto__`, and `constructor`
 * holding `prototype`), but named: Fastify's parser calls such a body "not valid JSON". `refuse` makes the error
 * the body's problems are answered with; `broken` the error of a body that is not JSON, told where, in the words
 * a broken file gets.
 */
export function parseJsonBodies (app: FastifyInstance, refuse: (problems: ValueProblem[]) => Error, broken: (problem: ValueProblem) => Error): void {
  const parseJson = app.getDefaultJsonParser('error', 'error')
  app.removeContentTypeParser('application/json')
  app.addContentTypeParser('application/json', { parseAs: 'string' }, function parseWithNamedKeys (request, body, done) {
    parseJson(request, body as string, (error: Error | null, value?: unknown) => {
      if (error === null) {
        done(null, value)
        return
      }
      // Only a body JSON itself reads can hold such a key; one it cannot read is told where it breaks.
      const problems = prototypeKeys(body as string)
      if (problems.length > 0) done(refuse(problems), undefined)
      else done((error as { code?: string }).code === 'FST_ERR_CTP_INVALID_JSON_BODY' ? broken({ path: '', message: notValidJson(body as string) }) : error, undefined)
    })
  })
}

/** Where a JSON text holds a key that could change a prototype, as JSON Pointers; none when it is not JSON at all. */
export function prototypeKeys (text: string): ValueProblem[] {
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch {
    return []
  }
  const problems: ValueProblem[] = []
  const visit = (node: unknown, path: string): void => {
    if (typeof node !== 'object' || node === null) return
    if (Object.hasOwn(node, '__proto__')) problems.push({ path: `${path}/__proto__`, message: REFUSED })
    const constructor = (node as { constructor?: unknown }).constructor
    if (Object.hasOwn(node, 'constructor') && typeof constructor === 'object' && constructor !== null && Object.hasOwn(constructor, 'prototype')) {
      problems.push({ path: `${path}/constructor/prototype`, message: REFUSED })
    }
    for (const [key, child] of Object.entries(node)) visit(child, `${path}/${key.replaceAll('~', '~0').replaceAll('/', '~1')}`)
  }
  visit(value, '')
  return problems
}
