/** The meter beside the message box: estimated use of the context window, amber past 70 %. */
// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { ContextMeter } from '../../src-renderer/src/features/composer/ContextMeter'
import { messageBuilder } from '../support/stored-messages'
import { renderWithApp } from './support/render-app'
import { sessionRecord } from './support/session-record'
import { settingsView } from './support/settings-host'

const session = sessionRecord({ id: 's', title: 't', messageCount: 1 })

function show(estimatedTokens: number): void {
  const m = messageBuilder()
  renderWithApp(<ContextMeter sessionId="s" />, {
    'sessions.get': () => ({
      session,
      messages: [m({ role: 'user', content: 'hi' })],
      hasMore: false,
    }),
    'sessions.context': () => ({
      estimatedTokens,
      windowTokens: 10_000,
      compactAtPercent: 70,
      windowSource: 'the settings',
    }),
    'settings.get': () => settingsView(),
  })
}

afterEach(cleanup)

describe('the context meter', () => {
  it('shows the estimate over the window', async () => {
    show(2_500)
    const meter = await screen.findByRole('meter', { name: 'Context window used' })
    expect(meter.getAttribute('aria-valuenow')).toBe('2500')
    expect(meter.getAttribute('aria-valuemax')).toBe('10000')
    expect(meter.textContent).toContain('2.5K / 10K')
    expect(meter.className).not.toContain('context-meter-warn')
  })

  it('turns amber at 70 % of the window', async () => {
    show(7_000)
    const meter = await screen.findByRole('meter', { name: 'Context window used' })
    expect(meter.className).toContain('context-meter-warn')
    expect(meter.getAttribute('aria-valuetext')).toBe('about 7,000 of 10,000 tokens (70%)')
  })
})
