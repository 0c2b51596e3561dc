import type { TargetLinkOptions } from '../target-client/target-connection.js'
import { recordTarget } from './record-target.js'
import { verifyTarget } from './verify-target.js'
import { TargetLinkError } from '../errors/errors.js'

// The real NVR was first called "the device", a word now kept for the simulated one. Code written against the
// first names goes on working: each is the same value as its new name, not a copy.

/** @deprecated Use verifyTarget: the same function. */
export const verifyDevice = verifyTarget
/** @deprecated Use recordTarget: the same function. */
export const recordDevice = recordTarget
/** @deprecated Use TargetLinkError: the same class. */
export const DeviceLinkError = TargetLinkError
/** @deprecated Use TargetLinkError: the same class. */
// The type beside the value, as a class declares both: `catch (error) { (error as DeviceLinkError).option }` goes on compiling.
// eslint-disable-next-line @typescript-eslint/no-redeclare
export type DeviceLinkError = TargetLinkError
/** @deprecated Use TargetLinkOptions: the same options. */
export type DeviceLinkOptions = TargetLinkOptions
