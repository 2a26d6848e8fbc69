import { expect, test } from '@playwright/test'
import { startScriptedServer, textReply } from '../support/openai-server'
import { startWebHost, type WebHost } from './support/web-host'
import { ask, idle, keepScreenshot, lastAnswer } from './support/ui'

let host: WebHost
test.afterEach(async () => {
  await host?.stop()
})

test('with no provider, the message stays in the box and says what to do', async ({ page }) => {
  host = await startWebHost({ env: { CAIRN_BASE_URL: '', CAIRN_MODEL: '' } })
  await page.goto(host.url)
  const box = page.getByRole('textbox', { name: 'Message' })
  await expect(box).toBeFocused()
  await box.fill('Hello, is anyone there?')
  await box.press('Enter')
  await expect(page.getByText(/Not sent: .*provider/i)).toBeVisible()
  await expect(box).toHaveValue('Hello, is anyone there?')
  await keepScreenshot(page, 'not-sent')
})

test('/model switches the chat’s model (Tab completes), and the next turn uses it', async ({
  page,
}) => {
  const model = await startScriptedServer({ models: ['m', 'stone-large', 'stone-small'] })
  host = await startWebHost({ model })
  try {
    model.enqueue(textReply('From m.'))
    await page.goto(host.url)
    await ask(page, 'Which model?')
    await expect(lastAnswer(page)).toContainText('From m.')
    await idle(page)
    expect(model.requests.at(-1)!.body.model).toBe('m')
    const box = page.getByRole('textbox', { name: 'Message' })
    await box.fill('/model stone-l')
    await box.press('Tab')
    await expect(box).toHaveValue('/model stone-large')
    await box.press('Enter')
    await expect(page.getByText('This chat now uses stone-large.')).toBeVisible()
    await expect(page.getByRole('combobox', { name: 'Model' })).toHaveValue('stone-large')
    model.enqueue(textReply('From the large stone.'))
    await ask(page, 'And now?')
    await expect(lastAnswer(page)).toContainText('From the large stone.')
    expect(model.requests.at(-1)!.body.model).toBe('stone-large')
    // the picker switches too
    await idle(page)
    await page.getByRole('combobox', { name: 'Model' }).selectOption('stone-small')
    model.enqueue(textReply('Small.'))
    await ask(page, 'Smaller?')
    await expect(lastAnswer(page)).toContainText('Small.')
    expect(model.requests.at(-1)!.body.model).toBe('stone-small')
    await box.fill('/help')
    await box.press('Enter')
    await expect(page.getByText('/model <name>')).toBeVisible()
    await box.fill('/nope')
    await box.press('Enter')
    await expect(
      page.getByText('There is no command /nope. Type /help for the commands.'),
    ).toBeVisible()
    await box.fill('/new')
    await box.press('Enter')
    await expect(page.getByRole('heading', { name: 'What can I help with?' })).toBeVisible()
  } finally {
    await host.stop()
    await model.close()
  }
})
