// @vitest-environment jsdom
import { act, cleanup, screen, waitFor } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import { McpSection } from '../../src-renderer/src/features/settings/McpSection'
import { renderWithApp } from './support/render-app'
import { mcpServer } from './support/mcp-server'

afterEach(cleanup)

function remote(p: Partial<McpServerInfo> = {}): McpServerInfo {
  return mcpServer({
    name: 'linear',
    state: 'needs-login',
    error: 'The server "linear" needs you to log in.',
    transport: 'streamable-http',
    command: 'https://mcp.example.com/mcp',
    resolvedCommand: 'https://mcp.example.com/mcp',
    ...p,
  })
}

const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name}, `) })

describe('logging in to a remote MCP server', () => {
  it('shows "needs login" with a Log in button that starts the login and shows the address', async () => {
    const asked: string[] = []
    const address = 'https://auth.example.com/authorize?client_id=c&state=s'
    const { platform } = renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [remote()], fromFile: false }),
      'mcp.login': ({ name }) => {
        asked.push(name)
        return { server: remote(), authorizationUrl: address }
      },
      'mcp.logs': () => ({ name: 'linear', stderrTail: '' }),
    })
    const user = userEvent.setup()
    await waitFor(() =>
      expect(row('linear').getAttribute('aria-label')).toBe('linear, needs login'),
    )
    await user.click(screen.getByRole('button', { name: 'Log in to linear' }))
    expect(asked).toEqual(['linear'])
    expect((await screen.findByRole('status')).textContent).toContain(address)
    // the login finishes in the background: the status event makes the server ready
    act(() => platform.emit('mcp.status', remote({ state: 'ready', error: null })))
    await waitFor(() => expect(row('linear').getAttribute('aria-label')).toBe('linear, ready'))
    expect(screen.queryByRole('button', { name: 'Log in to linear' })).toBeNull()
  })

  it('says why a login could not start', async () => {
    renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [remote()], fromFile: false }),
      'mcp.login': () => {
        throw new Error('The login failed: the authorization server could not be found')
      },
      'mcp.logs': () => ({ name: 'linear', stderrTail: '' }),
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('button', { name: 'Log in to linear' }))
    expect((await screen.findByRole('alert')).textContent).toMatch(/could not be found/)
  })
})
