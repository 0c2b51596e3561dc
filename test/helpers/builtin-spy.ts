import { syncBuiltinESMExports } from 'node:module'
import type { Test } from 'tap'

type AnyFunction = (...args: never[]) => unknown

/**
 * Counts the calls of a function of a Node built-in module, for `import { name }` in the code under test
 * too (Node updates named imports of built-ins on syncBuiltinESMExports). Restored when the test ends.
 */
export function spyOnBuiltin<M extends object> (t: Test, module: M, name: keyof M & string): unknown[][] {
  const calls: unknown[][] = []
  const original = module[name] as AnyFunction
  Object.assign(module, {
    [name]: function spy (this: unknown, ...args: never[]) {
      calls.push(args)
      return original.apply(this, args)
    }
  })
  syncBuiltinESMExports()
  t.teardown(() => {
    Object.assign(module, { [name]: original })
    syncBuiltinESMExports()
  })
  return calls
}
