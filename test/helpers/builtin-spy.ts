import { syncBuiltinESMExports } from 'node:module'
import type { Test } from 'tap'

type AnyFunction = (...args: never[]) => unknown

/**
 * Counts the calls of a function of a Node built-in module, for `import { name }` in the code under test
 * too (Node updates named imports of built-ins on syncBuiltinESMExports), and answers them with the stand-in
 * given, or the function itself. Restored when the test ends.
 */
export function spyOnBuiltin<M extends object> (t: Test, module: M, name: keyof M & string, standIn?: AnyFunction): unknown[][] {
  const calls: unknown[][] = []
  const original = module[name] as AnyFunction
  const answer = standIn ?? original
  Object.assign(module, {
    [name]: function spy (this: unknown, ...args: never[]) {
      calls.push(args)
      return answer.apply(this, args)
    }
  })
  syncBuiltinESMExports()
  t.teardown(() => {
    Object.assign(module, { [name]: original })
    syncBuiltinESMExports()
  })
  return calls
}
