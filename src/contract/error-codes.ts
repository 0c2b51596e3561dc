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
  /** 409: the schedules' clock is the real one, which moves by itself: a manual one needs --clock manual. */
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
