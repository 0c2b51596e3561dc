import { expect, test } from './nvr-fixture.js'

test('shows the security exit\'s counting lines', async ({ page }) => {
  await page.goto('/')
  await expect(page.locator('#status')).toHaveText('2 counting lines')
  await expect(page.locator('#lines li')).toHaveText(['Exit to airside', 'Roller bags leaving screening'])
})

test('shows a loading state while the list is slow', async ({ page, nvrFault }) => {
  await nvrFault({ delay: 2000, route: 'list', times: 1 })
  await page.goto('/')
  await expect(page.locator('#status')).toHaveText('Loading…')
  await expect(page.locator('#status')).toHaveText('2 counting lines')
})

test('says when the recorder is unavailable', async ({ page, nvrFault }) => {
  await nvrFault({ status: 503, retryAfter: 30 })
  await page.goto('/')
  await expect(page.locator('#status')).toHaveText('The recorder is unavailable, retrying in 30 s.')
})

test('asks to sign in again when the token has expired', async ({ page, nvrFault }) => {
  await nvrFault({ status: 401 })
  await page.goto('/')
  await expect(page.locator('#status')).toHaveText('Your session has expired. Please sign in again.')
})
