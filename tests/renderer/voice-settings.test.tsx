// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import { GeneralSection } from '../../src-renderer/src/features/settings/GeneralSection'
import { renderWithApp } from './support/render-app'
import { mcpServer } from './support/mcp-server'
import { settingsHost } from './support/settings-host'

afterEach(cleanup)

const STT = ['stt_start_session', 'stt_get_updates', 'stt_stop_session']
const server = (name: string, tools: string[]): McpServerInfo =>
  mcpServer({ name, tools: tools.map((t) => ({ name: t, description: '', readOnly: false })) })

describe('Settings › General › Voice input', () => {
  it('offers the servers that have the three voice tools and saves the choice in one request', async () => {
    const host = settingsHost()
    renderWithApp(<GeneralSection />, {
      ...host.handlers,
      'mcp.list': () => ({
        servers: [server('alpha', STT), server('files', ['read']), server('beta', STT)],
        fromFile: false,
      }),
    })
    const user = userEvent.setup()
    const form = await screen.findByRole('form', { name: 'Voice input' })
    const select = within(form).getByRole('combobox', { name: 'Voice server' })
    await waitFor(() =>
      expect(
        within(select)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['The only server that offers voice input', 'alpha', 'beta']),
    )
    await user.selectOptions(select, 'beta')
    await user.click(within(form).getByRole('radio', { name: /put in the message box/ }))
    await user.click(within(form).getByRole('button', { name: 'Save voice input' }))
    await waitFor(() =>
      expect(host.current().voice).toEqual({ server: 'beta', finalUtterance: 'compose' }),
    )
    expect(host.updates).toEqual([{ voice: { server: 'beta', finalUtterance: 'compose' } }])
  })
})
