import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { expect, test } from '@playwright/test'
import { textReply } from '../support/openai-server'
import { sttServer } from '../support/stt'
import { answers, idle, keepScreenshot } from './support/ui'
import { startWebHost, type WebHost } from './support/web-host'

let host: WebHost
let dir: string
test.afterEach(async () => {
  await host?.stop()
  rmSync(dir, { recursive: true, force: true })
})

test('the microphone shows the partial text live and sends two spoken sentences as two turns, in order', async ({
  page,
}) => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-voice-'))
  const heard = join(dir, 'heard')
  const spoken = join(dir, 'spoken')
  const stt = sttServer(dir, {
    steps: [
      { waitFile: heard },
      { partial: 'What is' },
      { partial: 'What is a cairn' },
      { waitFile: spoken },
      { final: 'What is a cairn?' },
      { waitPolls: 1 },
      { partial: 'Who builds' },
      { final: 'Who builds them?' },
    ],
  })
  host = await startWebHost({ mcpServers: { stt: stt.config } })
  host.model.enqueue(textReply('A pile of stones that marks a trail.'), textReply('Walkers do.'))
  await page.goto(host.url)

  const composer = page.getByRole('form', { name: 'Compose' })
  const mic = composer.getByRole('button', { name: 'Voice input' })
  await expect(mic).toHaveAttribute('aria-pressed', 'false')
  await mic.click()
  await expect(mic).toHaveAttribute('aria-pressed', 'true')
  await expect(composer.getByText(/Listening \(stt\)/)).toBeVisible()

  writeFileSync(heard, '')
  await expect(composer.getByLabel('Heard so far')).toHaveText('What is a cairn')
  await keepScreenshot(page, 'voice-partial')

  writeFileSync(spoken, '')
  const you = page.getByRole('article', { name: 'You' })
  await expect(you).toHaveCount(2, { timeout: 30_000 })
  await expect(you.nth(0)).toContainText('What is a cairn?')
  await expect(you.nth(1)).toContainText('Who builds them?')
  await expect(answers(page).nth(0)).toContainText('A pile of stones')
  await expect(answers(page).nth(1)).toContainText('Walkers do.')
  await idle(page)
  // the window is in the chat the first sentence started
  await expect(page).toHaveURL(/#\/session\/[^/]+$/)
  await keepScreenshot(page, 'voice-two-turns')

  // the model never saw the speech-to-text tools
  for (const req of host.model.requests) {
    const names = ((req.body as { tools?: { function: { name: string } }[] }).tools ?? []).map(
      (t) => t.function.name,
    )
    expect(names.filter((n) => n.startsWith('stt') || n.includes('stt_'))).toEqual([])
  }

  await mic.click()
  await expect(mic).toHaveAttribute('aria-pressed', 'false')
  await expect(composer.getByText(/Listening/)).toHaveCount(0)
  await expect.poll(() => stt.calls().filter((c) => c.call === 'stop').length).toBe(1)

  // the settings name the voice server to use when several qualify
  await page.goto(`${host.base}/#/settings/general`)
  const form = page.getByRole('form', { name: 'Voice input' })
  await expect(form.getByRole('combobox', { name: 'Voice server' })).toContainText('stt')
  await form.scrollIntoViewIfNeeded()
  await keepScreenshot(page, 'voice-settings')
})

test('finals heard during an answer are listed above the box; Stop drops them', async ({
  page,
}) => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-e2e-voice-'))
  const spoken = join(dir, 'spoken')
  const stt = sttServer(dir, {
    steps: [{ waitFile: spoken }, { final: 'One.' }, { final: 'Two.' }, { final: 'Three.' }],
  })
  host = await startWebHost({ mcpServers: { stt: stt.config } })
  let release!: () => void
  const held = new Promise<void>((r) => (release = r))
  host.model.enqueue(async () => {
    await held
    return textReply('late')
  })
  await page.goto(host.url)
  const composer = page.getByRole('form', { name: 'Compose' })
  await composer.getByRole('button', { name: 'Voice input' }).click()
  await expect(composer.getByText(/Listening \(stt\)/)).toBeVisible()

  writeFileSync(spoken, '')
  const queued = composer.getByRole('list', { name: 'Queued voice messages' })
  await expect(queued.getByRole('listitem')).toHaveText(['Two.', 'Three.'])
  await expect(page.getByRole('article', { name: 'You' })).toHaveText(/One\./)
  await keepScreenshot(page, 'voice-queued')

  await composer.getByRole('button', { name: 'Stop generating' }).click()
  await expect(queued).toHaveCount(0)
  await idle(page)
  release()
  await expect(page.getByRole('article', { name: 'You' })).toHaveCount(1)
  expect(JSON.stringify(host.model.requests.map((r) => r.body as unknown))).not.toContain('Two.')
  // still listening: Stop ends the answer, not voice input
  await expect(composer.getByRole('button', { name: 'Voice input' })).toHaveAttribute(
    'aria-pressed',
    'true',
  )
})
