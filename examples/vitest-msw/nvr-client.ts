import type { CountingLine, CountingLineListEnvelope, ErrorEnvelope } from 'mock-nvr/types'

/** A refusal of the NVR, with what a page needs to show it. */
export class NvrError extends Error {
  constructor (readonly status: number, message: string, readonly retryAfterSeconds?: number) {
    super(message)
    this.name = 'NvrError'
  }
}

/** A small client of the Counting Lines Read API, as a frontend would have one. */
export async function fetchCountingLines (baseUrl: string, token: string | undefined, cameraId: string): Promise<CountingLine[]> {
  const response = await fetch(`${baseUrl}/nvr/v1/cameras/${encodeURIComponent(cameraId)}/counting_lines`, {
    headers: token === undefined ? {} : { authorization: `Bearer ${token}` }
  })
  if (response.ok) return (await response.json() as CountingLineListEnvelope).content
  const { result } = await response.json() as ErrorEnvelope
  const retryAfter = response.headers.get('retry-after')
  throw new NvrError(result.httpCode, result.errorMessage, retryAfter === null ? undefined : Number(retryAfter))
}
