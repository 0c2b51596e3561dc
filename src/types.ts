/**
 * The wire types, for a frontend's `import type { CountingLine } from 'mock-nvr/types'`: their declarations
 * reach no server package and no Node built-in.
 */
export type { CountingLine, CountingLineEnvelope, CountingLineListEnvelope, ErrorEnvelope, FixtureData, Camera } from './contract/schemas.js'
export type { Fault, FaultSpec, Operation } from './control/faults/fault-spec.js'
export type { OperationName } from './contract/paths.js'
export type { Delay } from './util/delay.js'
