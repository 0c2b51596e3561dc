/** The wire's one shape of a time: UTC with milliseconds, as `created` and `updated` carry it. */
export const TIMESTAMP_PATTERN = '^\\d{4}-\\d{2}-\\d{2}T\\d{2}:\\d{2}:\\d{2}\\.\\d{3}Z$'

/** The refusal of any other shape, after the name of what holds it. */
export const TIMESTAMP_RULE = 'must be a UTC timestamp like 2024-05-01T08:30:00.000Z'
