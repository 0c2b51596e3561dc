/** The message a call throws, or 'accepted' when it throws nothing: a refusal compared as text. */
export function thrown (fn: () => unknown): string {
  try {
    fn()
  } catch (error) {
    return (error as Error).message
  }
  return 'accepted'
}
