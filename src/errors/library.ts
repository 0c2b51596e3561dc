/**
 * Every error the library throws, from one module: each has its stable `code` (THROWN_ERROR_CODES), and
 * `instanceof` tells them apart. An answer's `result.errorCode` is one of ERROR_CODES.
 */
export { ERROR_CODES, THROWN_ERROR_CODES, type ErrorCode, type ThrownErrorCode, type ThrownErrorName } from './catalogue.js'
export {
  MockNvrError, ProblemsError, OptionsError, FixtureError, ScopedTokensError, InvalidFaultError, HealthSpecError, ScheduleFileError, TlsError,
  ListenError, FleetListenError, TargetLinkError, RecordRefusedError, SettingError, ClockError, type FileProblem, type FixtureProblem
} from './errors.js'
