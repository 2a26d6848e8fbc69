// @vitest-environment jsdom
/**
 * Settings › MCP servers › "Logins to remote servers": Cairn's own client metadata document
 * by default, another https one, or registering with each server; a bad address is said
 * beside the field and nothing is saved.
 */
import { cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import { McpClientForm } from '../../src-renderer/src/features/settings/McpClientForm'
import { renderWithApp } from './support/render-app'
import { settingsHost } from './support/settings-host'

afterEach(cleanup)

function setup() {
  const host = settingsHost()
  renderWithApp(<McpClientForm saved={host.current().mcp} />, host.handlers)
  return { host, user: userEvent.setup() }
}

describe('the client id of logins', () => {
  it("is Cairn's own document by default, and its address is shown", async () => {
    setup()
    expect(await screen.findByRole('radio', { name: /^Cairn’s own document/ })).toHaveProperty(
      'checked',
      true,
    )
    expect(screen.getByText('https://cairn.test/client.json')).toBeTruthy()
  })

  it('takes another https document, refusing an address that is not one', async () => {
    const { host, user } = setup()
    await user.click(await screen.findByRole('radio', { name: /^A document I publish/ }))
    const field = screen.getByRole('textbox', { name: 'Address of the document' })
    await user.type(field, 'http://example.com/c.json')
    await user.click(screen.getByRole('button', { name: 'Save login settings' }))
    expect(await screen.findByText('The address must start with https://.')).toBeTruthy()
    expect(host.updates).toEqual([])
    await user.clear(field)
    await user.type(field, 'https://example.com/c.json')
    await user.click(screen.getByRole('button', { name: 'Save login settings' }))
    await waitFor(() =>
      expect(host.current().mcp.clientMetadataUrl).toBe('https://example.com/c.json'),
    )
    expect(host.updates).toEqual([{ mcp: { clientMetadataUrl: 'https://example.com/c.json' } }])
  })

  it('registering with each server instead is saved as no document', async () => {
    const { host, user } = setup()
    await user.click(
      await screen.findByRole('radio', { name: /^Register with each server instead/ }),
    )
    await user.click(screen.getByRole('button', { name: 'Save login settings' }))
    await waitFor(() => expect(host.current().mcp.clientMetadataUrl).toBeNull())
  })
})
