// What verify reports of a target, a real NVR: kept here, beside the error that carries it (RecordRefusedError).

/** One way the target breaks the contract: where (camera, line, request, JSON path) and what. */
export interface Violation {
  camera: string
  /** The line's id, `#3` for the fourth line when it has no usable id, or null for the whole answer. */
  line: string | null
  /** Method and path, e.g. `GET /nvr/v1/cameras/cam-1/counting_lines`. */
  request: string
  /** JSON Pointer into the answer's body; '' for the answer as a whole. */
  path: string
  problem: string
}

/** What an answer to an unspecified case looks like, reduced to what a client acts on. */
export interface Observation {
  /** The status, or null when no answer came. */
  status: number | null
  /** The headers that matter, by lower-case name; only those sent. */
  headers: Record<string, string>
  /**
   * What the body is: 'error envelope' (success false, httpCode equal to the status), 'error envelope,
   * httpCode N' (another code), 'success envelope', 'other JSON', 'not JSON: "its first characters…"',
   * 'empty', or 'no answer: why'; then any envelope members the seed does not show, and a byte-order mark.
   */
  envelope: string
  /** An error envelope's errorCode, quoted as sent, or '(none)'. */
  errorCode?: string
  /** What an error envelope's errorMessage is: 'a string', 'an empty string', '(none)', '(none); "message" instead', … */
  errorMessage?: string
}

/** A case the spec leaves open where the target answers otherwise than mock-nvr decided to. */
export interface Difference {
  case: string
  /** Method and path of the request both were asked. */
  request: string
  /** The target's answer: the JSON report has always named it device, and scripts read it by that name. */
  device: Observation
  mock: Observation
}

/** What verify found: contract violations, and differences from mock-nvr's decisions. */
export interface VerifyReport {
  /** The target's base URL. */
  target: string
  /** When the run started, as an ISO timestamp. */
  time: string
  cameras: string[]
  /** The camera the unspecified cases were asked on (the first that answered its list); null when none did, so none were compared. */
  probedCamera: string | null
  violations: Violation[]
  differences: Difference[]
}
