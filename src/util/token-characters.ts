/**
 * What a bearer token may hold, on every surface that takes one (flags, variables, options, fleet files, the admin
 * API, verify's token): visible ASCII, 0x21 to 0x7E. Anything else no two HTTP clients send alike (curl sends `ö`
 * as UTF-8 bytes, Node's fetch as Latin-1), so such a token would be refused for some clients only, or it would
 * split the header (spaces, control characters).
 */
export const TOKEN_PATTERN = '^[\\x21-\\x7e]+$'

/** The refusal of any other token, after the name of what holds it; it never quotes the token. */
export const TOKEN_RULE = 'must be one word of visible ASCII characters (no spaces, no letters like ö or é)'

const TOKEN = new RegExp(TOKEN_PATTERN)

/** Whether a value is a token every HTTP client sends alike. */
export function isSendableToken (value: unknown): boolean {
  return typeof value === 'string' && TOKEN.test(value)
}
