import { Type, type Static } from '@sinclair/typebox'

/** 'K/N' as given: the schema holds its form; `shardProblem` its numbers. */
export const ShardSchema = Type.String({
  pattern: '^[0-9]+/[0-9]+$',
  patternRule: "must be K/N, the K-th of N slices of the fleet's devices, like 2/3"
})
export type ShardText = Static<typeof ShardSchema>

/** One slice of a fleet: the index-th (from 1) of count. */
export interface Shard {
  index: number
  count: number
}

/** Reads 'K/N' that the schema passed: K and N, whatever their range. */
export function readShard (text: ShardText): Shard {
  const [index, count] = text.split('/').map(Number) as [number, number]
  return { index, count }
}

/** What is wrong with the numbers of a 'K/N' the schema passed, or undefined when K is from 1 to N. */
export function shardProblem (text: ShardText): string | undefined {
  const { index, count } = readShard(text)
  if (count < 1) return 'must be K/N with N at least 1'
  if (index < 1 || index > count) return 'must be K/N with K from 1 to N'
  return undefined
}

/**
 * The devices of a shard of a fleet of `devices`, by index, as [start, end): contiguous slices in order, each of
 * ⌊devices/N⌋ devices, the first devices mod N slices one more. Every process computes its own from K, N and the
 * fleet alone, so the N slices cover the fleet once with no shared state.
 */
export function shardRange ({ index, count }: Shard, devices: number): { start: number, end: number } {
  const size = Math.floor(devices / count)
  const larger = devices % count
  const start = (index - 1) * size + Math.min(index - 1, larger)
  return { start, end: start + size + (index <= larger ? 1 : 0) }
}
