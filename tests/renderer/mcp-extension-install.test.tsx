// @vitest-environment jsdom
/**
 * Settings › MCP servers › Extensions: a real `.mcpb` bundle chosen in the page's file input
 * (browser mode's way; the desktop app's dialog is the same route's), unpacked and checked
 * by the engine's own store on a temporary folder, reviewed (author, runtime, tools, the
 * command line, the settings: sensitive ones hidden) and installed with the values typed.
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterAll, afterEach, describe, expect, it } from 'vitest'
import type { RouteInput } from '../../src-preload/contract/routes'
import { ExtensionStore } from '../../src-main/adapters/mcpb/extensions'
import { McpSection } from '../../src-renderer/src/features/settings/McpSection'
import { greeterBundle, zipWithEntry } from '../support/mcpb'
import { renderWithApp } from './support/render-app'
import { mcpServer } from './support/mcp-server'
import { settingsHost } from './support/settings-host'
import { RouteFailure } from './support/test-platform'
import { ExpectedError } from '../../src-main/core/errors'

const dir = mkdtempSync(join(tmpdir(), 'cairn-mcpb-window-'))
afterEach(cleanup)
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** the engine's refusals as the test platform answers them */
async function failing<T>(work: Promise<T>): Promise<T> {
  try {
    return await work
  } catch (e) {
    if (e instanceof ExpectedError)
      throw new RouteFailure(e.code, e.message, e.details as Record<string, unknown>)
    throw e
  }
}

function setup() {
  const store = new ExtensionStore(dir, { findProgram: async () => '/usr/bin/node' })
  const installs: RouteInput<'mcp.extensionInstall'>[] = []
  const view = renderWithApp(<McpSection />, {
    ...settingsHost().handlers,
    'mcp.list': () => ({ servers: [], fromFile: false }),
    'mcp.extensionOpen': ({ name, data }) =>
      failing(store.open({ file: name, bytes: data }, () => false)),
    'mcp.extensionDiscard': async ({ stageId }) => (
      await store.discard(stageId),
      { discarded: true }
    ),
    'mcp.extensionInstall': async (i) => {
      installs.push(i)
      await failing(store.install(i.stageId, i.name, i.values))
      return { servers: [mcpServer({ name: i.name, enabled: false })] }
    },
  })
  return { ...view, installs, user: userEvent.setup({ delay: null }) }
}

const file = (bytes: Uint8Array<ArrayBuffer>, name: string): File => new File([bytes], name)

describe('Install extension…', () => {
  it('reviews a bundle and installs it switched off with the values typed', async () => {
    const { user, installs } = setup()
    await user.upload(
      await screen.findByLabelText('Extension file (.mcpb)'),
      file(greeterBundle(), 'greeter.mcpb'),
    )
    // the engine's store unzips it for real: slower than a scripted answer
    const review = await screen.findByRole(
      'region',
      { name: 'Review the extension greeter' },
      { timeout: 15_000 },
    )
    expect(within(review).getByText('Ada Example, ada@example.com')).toBeTruthy()
    expect(within(review).getByText('node, found at /usr/bin/node')).toBeTruthy()
    expect(within(review).getByText('greet')).toBeTruthy()
    expect(
      within(review).getByText('node ${__dirname}/server/index.cjs --units=${user_config.units}'),
    ).toBeTruthy()
    const key = within(review).getByLabelText(
      'API key (required, sensitive, kept with the API keys)',
    )
    expect(key.getAttribute('type')).toBe('password')
    // a required setting left empty: the engine says which
    await user.click(within(review).getByRole('button', { name: 'Install, switched off' }))
    expect(
      await within(review).findByText(/"API key" \(api_key\) is required/, {}, { timeout: 15_000 }),
    ).toBeTruthy()
    await user.type(key, 'sk-typed')
    await user.click(within(review).getByRole('button', { name: 'Install, switched off' }))
    await waitFor(() => expect(screen.getByText(/Installed greeter, switched off/)).toBeTruthy(), {
      timeout: 15_000,
    })
    expect(installs.at(-1)).toEqual({
      stageId: expect.any(String),
      name: 'greeter',
      values: { api_key: 'sk-typed' },
    })
  })

  it('a hostile bundle is refused with the reason, and nothing is offered to install', async () => {
    const { user } = setup()
    await user.upload(
      await screen.findByLabelText('Extension file (.mcpb)'),
      file(zipWithEntry('../evil.txt'), 'evil.mcpb'),
    )
    expect((await screen.findByRole('alert', {}, { timeout: 15_000 })).textContent).toContain(
      'the entry "../evil.txt" points outside the bundle\'s folder',
    )
    expect(screen.queryByRole('button', { name: 'Install, switched off' })).toBeNull()
  })
})
