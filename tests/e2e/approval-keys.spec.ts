import { expect, test } from '@playwright/test'
import { lastToolContent, textReply, toolCallsReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { approval, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

test('an Enter held down since the message was sent approves nothing, even on a focused "Allow once"', async ({
  page,
}) => {
  host = await startWebHost()
  host.model.enqueue(
    toolCallsReply([{ name: 'write_file', arguments: '{"path":"held.txt","content":"x"}' }]),
    (req) => textReply(`Result: ${lastToolContent(req)}`),
  )
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  await box.fill('Write a note')
  // Enter goes down in the message box (it sends) and stays down
  await page.keyboard.down('Enter')
  const dialog = approval(page)
  await expect(dialog).toBeVisible()
  // Tab (a deliberate key inside the dialog) reaches "Allow once" while Enter is still held
  await dialog.getByRole('button', { name: 'Always allow' }).focus()
  await page.keyboard.press('Tab')
  const allow = dialog.getByRole('button', { name: 'Allow once' })
  await expect(allow).toBeFocused()
  // the held key repeats, then is released, on the button
  await page.keyboard.down('Enter')
  await page.keyboard.down('Enter')
  await page.keyboard.up('Enter')
  await expect(dialog).toBeVisible()
  await expect(allow).toBeFocused()
  // a click takes the request off the screen at once: it is still there, still unanswered
  expect(host.model.requests).toHaveLength(1)
  await keepScreenshot(page, 'approval-held-enter')
  // a fresh press on the button is deliberate
  await page.keyboard.press('Enter')
  await expect(dialog).toHaveCount(0)
  await expect(
    page.getByRole('region', { name: /Tool call write_file/ }).getByRole('status'),
  ).toHaveText('Done')
  await expect(lastAnswer(page)).toContainText('Result:')
  expect(host.model.requests).toHaveLength(2)
})
