import type { Locator, Page } from 'playwright-core'

/** What the page shows after Execute: the status, the request URL and the response body. */
export interface ExecutedRequest {
  status: string
  requestUrl: string
  body: string
}

/** Opens the API page and waits until the document is rendered. */
export async function openApiPage (page: Page, baseUrl: string): Promise<void> {
  await page.goto(`${baseUrl}/docs`)
  await page.locator('.swagger-ui .info .title').waitFor()
}

/** Authorize → the token → Authorize → Close, as a person does. */
export async function authorize (page: Page, token: string): Promise<void> {
  await page.locator('.auth-wrapper .authorize').click()
  await page.locator('#auth-bearer-value').fill(token)
  await page.getByRole('button', { name: 'Apply credentials' }).click()
  await page.locator('.auth-btn-wrapper .btn-done').click()
}

/**
 * Expands an operation, clicks "Try it out" and "Execute" with the prefilled examples, and reads the
 * answer. Expects the operation closed, as on a page opened without an operation in its URL.
 */
export async function tryOperation (page: Page, operationId: string): Promise<ExecutedRequest> {
  const operation = page.locator(`.opblock[id$="-${operationId}"]`)
  await operation.locator('.opblock-summary-control').click()
  await operation.getByRole('button', { name: 'Try it out' }).click()
  await operation.getByRole('button', { name: 'Execute' }).click()
  const response = operation.locator('.live-responses-table .response')
  await response.waitFor()
  return {
    status: await textOf(response.locator('.response-col_status')),
    requestUrl: await textOf(operation.locator('.request-url pre')),
    body: await textOf(response.locator('.response-col_description pre'))
  }
}

/** The values the page filled into the path parameters, in order. */
export async function parameterValues (page: Page, operationId: string): Promise<string[]> {
  const inputs = await page.locator(`.opblock[id$="-${operationId}"] .parameters input[type=text]`).all()
  return await Promise.all(inputs.map(input => input.inputValue()))
}

async function textOf (locator: Locator): Promise<string> {
  return (await locator.first().innerText()).trim()
}
