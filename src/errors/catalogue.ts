// Every error mock-nvr answers or throws has its stable code here, as fastify's lib/errors.js and undici's
// lib/core/errors.js keep theirs: the answered ones go on the wire, the thrown ones are `error.code` (errors.ts).

/**
 * The catalogue of `result.errorCode`: one stable, machine-readable string per case, the same on every
 * server, handler and document that answers in the error envelope. docs/contract.md lists them.
 */
export const ERROR_CODES = {
  /** 401: no Authorization header, or another scheme than Bearer. */
  noCredentials: 'NO_CREDENTIALS',
  /** 401: "Bearer" with no token or extra words. */
  malformedCredentials: 'MALFORMED_CREDENTIALS',
  /** 401: a well-formed token that is not accepted. */
  tokenRefused: 'TOKEN_REFUSED',
  /** 403: a scoped token asking for a camera outside its scope. */
  forbidden: 'FORBIDDEN',
  /** 404: no camera has that id. */
  cameraNotFound: 'CAMERA_NOT_FOUND',
  /** 404: the camera has no line with that id. */
  countingLineNotFound: 'COUNTING_LINE_NOT_FOUND',
  /** 404: nothing is served at that path. */
  pathNotFound: 'PATH_NOT_FOUND',
  /** 405: a method the path does not take. */
  methodNotAllowed: 'METHOD_NOT_ALLOWED',
  /** 400: malformed percent-encoding in the path. */
  badEncoding: 'BAD_ENCODING',
  /** 400: a request HTTP refuses (no Host, bytes that are not HTTP, a body where none is taken). */
  malformedRequest: 'MALFORMED_REQUEST',
  /** 408: a request that never finished. */
  requestTimeout: 'REQUEST_TIMEOUT',
  /** 431: headers over the size limit. */
  headersTooLarge: 'HEADERS_TOO_LARGE',
  /** 429: more requests than the rate limit allows. */
  rateLimited: 'RATE_LIMITED',
  /** Any status: a fault injected on purpose (a fault may name its own code). */
  injected: 'INJECTED_FAULT',
  /** 400: a Prefer header the mock cannot follow. */
  invalidPrefer: 'INVALID_PREFER',
  /** 400: an admin request body that is not valid. */
  invalidBody: 'INVALID_BODY',
  /** 400: a query parameter of an admin call that is not what it takes (a page's `limit`, `since` or `after`). */
  invalidQuery: 'INVALID_QUERY',
  /** 404: no injected fault has that id. */
  faultNotFound: 'FAULT_NOT_FOUND',
  /** 404: no device of the fleet has that name. */
  deviceNotFound: 'DEVICE_NOT_FOUND',
  /** 503: too many journal streams open. */
  tooManyStreams: 'TOO_MANY_STREAMS',
  /** 503: the device is starting after a reboot. */
  deviceStarting: 'DEVICE_STARTING',
  /** 409: a single mock-nvr on the manual clock refuses a state that would close the port its admin API shares. */
  healthLocksOut: 'HEALTH_LOCKS_OUT',
  /** 409: the device's clock is the real one, which moves by itself: a manual one needs --clock manual. */
  clockNotManual: 'CLOCK_NOT_MANUAL',
  // The target's three codes say DEVICE, as they did before the real NVR was called the target: clients match on them.
  /** 409: data cannot be replaced while proxying the target: the target's own data and token check answer. */
  dataFromTarget: 'DATA_FROM_DEVICE',
  /** 502: the proxied target did not answer. */
  targetUnreachable: 'DEVICE_UNREACHABLE',
  /** 504: the proxied target did not answer in time. */
  targetTimeout: 'DEVICE_TIMEOUT',
  /** 500: a defect of the mock. */
  internal: 'INTERNAL_ERROR'
} as const

export type ErrorCode = typeof ERROR_CODES[keyof typeof ERROR_CODES]

/**
 * The catalogue of `error.code` of what the library and the CLI throw, by class: one stable string per class, as
 * fastify's `FST_ERR_*` and undici's `UND_ERR_*`. docs/contract.md lists them.
 */
export const THROWN_ERROR_CODES = {
  /** An option of startMockNvr, startMockFleet or createNvrHandlers that cannot be used. */
  OptionsError: 'NVR_ERR_OPTIONS',
  /** A value a running device's setting refuses, by its verb; the error's `setting` names it. */
  SettingError: 'NVR_ERR_SETTING',
  /** A clock that cannot be moved as asked (clock.advance on the real clock, or not whole milliseconds from 0). */
  ClockError: 'NVR_ERR_CLOCK',
  /** A command line or environment variable the CLI cannot use. */
  UsageError: 'NVR_ERR_USAGE',
  /** A TLS certificate or key that cannot be served with. */
  TlsError: 'NVR_ERR_TLS',
  /** Fixture data (or a fleet file) that cannot be served. */
  FixtureError: 'NVR_ERR_FIXTURES',
  /** Scoped tokens that cannot be scoped (the admin token, an all-camera token). */
  ScopedTokensError: 'NVR_ERR_SCOPED_TOKENS',
  /** A fault spec that cannot be injected. */
  InvalidFaultError: 'NVR_ERR_FAULT_SPEC',
  /** A health state or schedule that cannot be set. */
  HealthSpecError: 'NVR_ERR_HEALTH_SPEC',
  /** A schedule file that cannot be used. */
  ScheduleFileError: 'NVR_ERR_SCHEDULE_FILE',
  /** A single mock-nvr could not listen; `systemCode` says why (EADDRINUSE …). */
  ListenError: 'NVR_ERR_LISTEN',
  /** A device of a fleet could not listen; no device was started. */
  FleetListenError: 'NVR_ERR_FLEET_LISTEN',
  /** verifyTarget or recordTarget got an unusable target or option. */
  TargetLinkError: 'NVR_ERR_TARGET_LINK',
  /** recordTarget refused a target that breaks the contract; nothing was recorded. */
  RecordRefusedError: 'NVR_ERR_RECORD_REFUSED',
  /** The target gave no answer to one request (refused, timed out, cut off). */
  NoAnswerError: 'NVR_ERR_NO_ANSWER',
  /** The target's answer could not be decoded (an unknown Content-Encoding, too large once inflated). */
  BodyDecodingError: 'NVR_ERR_BODY_DECODING',
  /** A recorded fixture file could not be written. */
  FixtureWriteError: 'NVR_ERR_FIXTURE_WRITE'
} as const

export type ThrownErrorName = keyof typeof THROWN_ERROR_CODES
export type ThrownErrorCode = typeof THROWN_ERROR_CODES[ThrownErrorName]
