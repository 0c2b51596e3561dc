// JSON forbids raw control characters inside strings, hence the range in the class.
// eslint-disable-next-line no-control-regex
const STRING = /"(?:[^"\\\u0000-\u001f]|\\(?:["\\/bfnrt]|u[0-9a-fA-F]{4}))*"/y
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y
const LITERAL = /true|false|null/y
const WHITESPACE = /[ \t\n\r]*/y

/** What a file or a request body that JSON.parse refuses is told, in every one the user writes: where it is broken. */
export function notValidJson (text: string): string {
  return `is not valid JSON at ${locateJsonSyntaxError(text)}`
}

/**
 * Where JSON.parse gave up, as "line L, column C". V8 names no position for some errors
 * ("Unexpected token"), so the text is scanned again to find the first offending character.
 */
export function locateJsonSyntaxError (text: string): string {
  const offset = firstErrorOffset(text)
  const before = text.slice(0, offset)
  const line = before.split('\n').length
  const column = offset - before.lastIndexOf('\n')
  return `line ${line}, column ${column}`
}

function firstErrorOffset (text: string): number {
  let position = 0

  function skip (pattern: RegExp): boolean {
    pattern.lastIndex = position
    const match = pattern.exec(text)
    if (match === null) return false
    position = pattern.lastIndex
    return true
  }

  function expect (char: string): void {
    skip(WHITESPACE)
    if (text[position] !== char) throw position
    position++
  }

  function sequence (close: string, item: () => void): void {
    skip(WHITESPACE)
    if (text[position] === close) { position++; return }
    for (;;) {
      item()
      skip(WHITESPACE)
      if (text[position] === close) { position++; return }
      expect(',')
    }
  }

  function value (): void {
    skip(WHITESPACE)
    const char = text[position]
    if (char === '{') {
      position++
      sequence('}', () => {
        skip(WHITESPACE)
        if (!skip(STRING)) throw position
        expect(':')
        value()
      })
    } else if (char === '[') {
      position++
      sequence(']', value)
    } else if (!skip(STRING) && !skip(NUMBER) && !skip(LITERAL)) {
      throw position
    }
  }

  try {
    value()
    skip(WHITESPACE)
    return position
  } catch (offset) {
    return offset as number
  }
}
