/// <reference lib="dom" />
import { fetchCountingLines, NvrError } from './nvr-client.js'

/** Fills an element with a camera's counting lines, or with why they could not be shown. */
export async function showCountingLines (element: HTMLElement, baseUrl: string, token: string | undefined, cameraId: string): Promise<void> {
  try {
    const lines = await fetchCountingLines(baseUrl, token, cameraId)
    element.replaceChildren(...lines.map(line => Object.assign(document.createElement('li'), { textContent: line.name })))
  } catch (error) {
    if (!(error instanceof NvrError)) throw error
    element.textContent = error.status === 401 ? 'Please sign in again.' : `The recorder is unavailable (${error.status}).`
  }
}
