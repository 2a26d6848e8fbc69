// @vitest-environment jsdom
import { act, cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { McpServerInfo } from '../../src-preload/contract/dto'
import type { RouteInput } from '../../src-preload/contract/routes'
import { McpSection } from '../../src-renderer/src/features/settings/McpSection'
import { mcpFormToConfig, emptyMcpForm } from '../../src-renderer/src/features/settings/mcp-form'
import { createAppEnv } from '../../src-renderer/src/state/app-env'
import { AppProviders } from '../../src-renderer/src/state/context'
import { renderWithApp } from './support/render-app'
import { mcpServer } from './support/mcp-server'
import { createTestPlatform, manualFrames, RouteFailure } from './support/test-platform'

afterEach(cleanup)

function info(p: Partial<McpServerInfo> = {}): McpServerInfo {
  return mcpServer({
    name: 'files',
    state: 'stopped',
    command: 'npx -y server-files /tmp',
    enabled: false,
    commandLine: {
      command: 'npx',
      args: ['-y', 'server-files', '/tmp'],
      envNames: ['TOKEN'],
      cwd: null,
      fingerprint: 'fp-1',
    },
    ...p,
  })
}

const row = (name: string) => screen.getByRole('listitem', { name: new RegExp(`^${name}, `) })

describe('MCP servers section', () => {
  it('asks with the full command line, sends its fingerprint, and follows mcp.status', async () => {
    const updates: RouteInput<'mcp.update'>[] = []
    const { platform } = renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [info()], fromFile: false }),
      'mcp.update': (input) => {
        updates.push(input)
        return { servers: [info({ enabled: true, state: 'starting' })] }
      },
      'mcp.logs': () => ({ name: 'files', stderrTail: '' }),
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('switch', { name: 'Enabled files' }))
    const dialog = screen.getByRole('dialog', { name: 'Start MCP server?' })
    for (const part of ['npx', '-y', 'server-files', '/tmp', 'TOKEN'])
      expect(within(dialog).getByText(part, { exact: true })).toBeTruthy()
    expect(updates).toEqual([])
    await user.click(within(dialog).getByRole('button', { name: 'Start server' }))
    await waitFor(() => expect(row('files').getAttribute('aria-label')).toBe('files, starting'))
    expect(updates).toEqual([{ name: 'files', enabled: true, confirmedFingerprint: 'fp-1' }])
    expect(screen.queryByRole('dialog')).toBeNull()

    act(() =>
      platform.emit(
        'mcp.status',
        info({
          enabled: true,
          state: 'error',
          error: 'The server exited with code 3 before it was ready. Its last output: boom.',
        }),
      ),
    )
    await waitFor(() => expect(row('files').getAttribute('aria-label')).toBe('files, error'))
    expect(screen.getByLabelText('What went wrong with files').textContent).toContain('code 3')
    // a status for a server the list does not hold (just removed) does not bring it back
    act(() => platform.emit('mcp.status', info({ name: 'gone' })))
    await act(() => new Promise((r) => setTimeout(r, 10)))
    expect(screen.queryByRole('listitem', { name: /^gone, / })).toBeNull()
    expect(screen.getAllByRole('listitem', { name: /, / })).toHaveLength(1)
  })

  it('Cancel starts nothing', async () => {
    const { platform } = renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [info()], fromFile: false }),
    })
    const user = userEvent.setup()
    await user.click(await screen.findByRole('switch', { name: 'Enabled files' }))
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(platform.requests.map((r) => r.route)).not.toContain('mcp.update')
  })

  it('in the desktop app the page does not ask: the host raises its own dialog', async () => {
    const platform = createTestPlatform({
      'mcp.list': () => ({ servers: [info()], fromFile: false }),
    })
    const env = createAppEnv({ ...platform, kind: 'desktop' }, { scheduler: manualFrames() })
    platform.handlers['mcp.update'] = () => {
      throw new RouteFailure('forbidden', '"files" was not started: its command was not allowed.')
    }
    render(
      <AppProviders env={env}>
        <McpSection />
      </AppProviders>,
    )
    const user = userEvent.setup()
    await user.click(await screen.findByRole('switch', { name: 'Enabled files' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(await screen.findByRole('alert')).toHaveProperty(
      'textContent',
      '"files" was not started: its command was not allowed.',
    )
    expect(platform.requests.find((r) => r.route === 'mcp.update')?.input).toEqual({
      name: 'files',
      enabled: true,
    })
  })

  it('the form says what is wrong beside each field, and sends nothing', async () => {
    const { platform } = renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [], fromFile: false }),
    })
    const user = userEvent.setup()
    await user.type(await screen.findByRole('textbox', { name: 'Name' }), 'bad/name')
    await user.type(screen.getByRole('textbox', { name: 'Environment variables' }), 'NOEQUALS')
    await user.click(screen.getByRole('button', { name: 'Review' }))
    expect(screen.getByRole('textbox', { name: 'Name' }).getAttribute('aria-invalid')).toBe('true')
    expect(screen.getByRole('textbox', { name: 'Command' }).getAttribute('aria-invalid')).toBe(
      'true',
    )
    expect(screen.getByText('Line 1 needs the form NAME=value.')).toBeTruthy()
    expect(platform.requests.map((r) => r.route)).not.toContain('mcp.parse')
  })

  it('under --mcp-config: read-only, with the reason', async () => {
    renderWithApp(<McpSection />, {
      'mcp.list': () => ({ servers: [info({ enabled: true, state: 'ready' })], fromFile: true }),
    })
    expect((await screen.findByRole('note')).textContent).toContain('--mcp-config')
    expect(screen.queryByRole('switch')).toBeNull()
    expect(screen.queryByRole('button', { name: 'Remove files' })).toBeNull()
    expect(screen.getByRole('button', { name: 'Restart files' })).toBeTruthy()
  })
})

describe('the add form', () => {
  it('builds a command server: arguments one per line, environment kept as typed', () => {
    const r = mcpFormToConfig({
      ...emptyMcpForm,
      name: 'fs',
      command: ' npx ',
      args: '-y\n\nserver fs\n',
      env: 'TOKEN= a b\nDEBUG=1',
      cwd: '/srv',
    })
    expect(r).toEqual({
      name: 'fs',
      config: {
        command: 'npx',
        args: ['-y', 'server fs'],
        env: { TOKEN: ' a b', DEBUG: '1' },
        cwd: '/srv',
      },
    })
  })

  it('checks a URL server: the address and the header lines', () => {
    expect(
      mcpFormToConfig({ ...emptyMcpForm, name: 'r', kind: 'url', url: 'ftp://x', headers: 'A' }),
    ).toEqual({
      errors: {
        url: 'The address must start with http:// or https://.',
        headers: 'Line 1 needs the form Name: value.',
      },
    })
    expect(
      mcpFormToConfig({
        ...emptyMcpForm,
        name: 'r',
        kind: 'url',
        url: 'https://example.com/mcp',
        headers: 'Authorization: Bearer x',
      }),
    ).toEqual({
      name: 'r',
      config: { url: 'https://example.com/mcp', headers: { Authorization: 'Bearer x' } },
    })
  })
})
