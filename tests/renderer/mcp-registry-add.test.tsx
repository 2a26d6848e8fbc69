// @vitest-environment jsdom
/**
 * Settings › MCP servers › "Add from registry…": search, review (publisher, command line,
 * values), add switched off. The registry's answers are the fixtures' server.json documents
 * read by the engine's own code (`viewOf`, `summaryOf`), so the window sees what it would.
 */
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { RouteInput, RouteOutput } from '../../src-preload/contract/routes'
import { summaryOf, viewOf } from '../../src-main/core/mcp-registry/install-plan'
import { serverAnswerSchema } from '../../src-main/core/mcp-registry/server-json'
import sneakyJson from '../fixtures/mcp-registry/sneaky.server.json'
import weatherJson from '../fixtures/mcp-registry/weather.server.json'
import { McpSection } from '../../src-renderer/src/features/settings/McpSection'
import { renderWithApp } from './support/render-app'
import { mcpServer } from './support/mcp-server'
import { settingsHost } from './support/settings-host'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)

const answer = (server: unknown) => serverAnswerSchema.parse({ server })
const weather = answer(weatherJson)
const sneaky = answer(sneakyJson)

function setup(
  install: (i: RouteInput<'mcp.registryInstall'>) => RouteOutput<'mcp.registryInstall'>,
) {
  const host = settingsHost()
  const view = renderWithApp(<McpSection />, {
    ...host.handlers,
    'mcp.list': () => ({ servers: [], fromFile: false }),
    'mcp.registrySearch': () => ({
      registry: 'https://registry.cairn.test',
      servers: [summaryOf(sneaky), summaryOf(weather)],
      leftOut: 1,
    }),
    'mcp.registryServer': ({ name }) => ({
      registry: 'https://registry.cairn.test',
      server: viewOf(name === weather.server.name ? weather : sneaky, () => false),
    }),
    'mcp.registryInstall': (i) => install(i),
  })
  return { ...view, user: userEvent.setup({ delay: null }) }
}

async function search(user: ReturnType<typeof userEvent.setup>): Promise<void> {
  await user.click(await screen.findByRole('button', { name: 'Add from registry…' }))
  await user.type(screen.getByRole('textbox', { name: 'Search the MCP registry' }), 'weather')
  await user.click(screen.getByRole('button', { name: 'Search' }))
}

describe('Add from registry…', () => {
  it('finds servers and shows the registry’s words as text', async () => {
    const { user, container } = setup(() => ({ servers: [] }))
    await search(user)
    const hit = await screen.findByRole('listitem', { name: 'io.github.mallory/weather-plus' })
    expect(hit.textContent).toContain('<img src=x onerror=alert(1)>')
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByText(/1 entry the registry sent could not be read/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Review io.github.mallory/weather-plus' }))
    const review = await screen.findByRole('region', {
      name: 'Review io.github.mallory/weather-plus',
    })
    // nothing of it can be installed: each way says why, and Add stays off
    expect(
      within(review)
        .getAllByRole('radio')
        .every((r) => (r as HTMLInputElement).disabled),
    ).toBe(true)
    expect(within(review).getByText(/not the package runner Cairn uses/)).toBeTruthy()
    expect(within(review).getByRole('button', { name: 'Add server' })).toHaveProperty(
      'disabled',
      true,
    )
  })

  it('reviews the command line and the values, says what is missing, and adds it switched off', async () => {
    const installs: RouteInput<'mcp.registryInstall'>[] = []
    const { user } = setup((i) => {
      installs.push(i)
      if (!i.values['env:WEATHER_API_KEY'])
        throw new RouteFailure('bad_request', 'io.github.alice/weather needs WEATHER_API_KEY.', {
          fields: { 'values.env:WEATHER_API_KEY': 'a value is needed' },
        })
      return { servers: [mcpServer({ name: i.name, enabled: false })] }
    })
    await search(user)
    await user.click(await screen.findByRole('button', { name: 'Review io.github.alice/weather' }))
    const review = await screen.findByRole('region', { name: 'Review io.github.alice/weather' })
    expect(within(review).getByText('GitHub account alice', { exact: false })).toBeTruthy()
    expect(within(review).getByText('npx -y @alice/weather-mcp@1.4.2 --units metric')).toBeTruthy()
    await user.click(within(review).getByRole('button', { name: 'Add server' }))
    expect(await within(review).findByText('a value is needed')).toBeTruthy()
    const key = within(review).getByLabelText(
      /^WEATHER_API_KEY \(environment variable, required, secret\)/,
    )
    expect(key.getAttribute('type')).toBe('password')
    await user.type(key, 'k-123')
    await user.selectOptions(within(review).getByLabelText(/^--units/), 'imperial')
    const name = within(review).getByRole('textbox', { name: 'Name in Cairn' })
    await user.clear(name)
    await user.type(name, 'forecast')
    await user.click(within(review).getByRole('button', { name: 'Add server' }))
    await waitFor(() => expect(screen.getByText(/Added forecast, switched off/)).toBeTruthy())
    expect(installs.at(-1)).toEqual({
      registryName: 'io.github.alice/weather',
      version: '1.4.2',
      option: 'package:0',
      name: 'forecast',
      values: { 'env:WEATHER_API_KEY': 'k-123', 'arg:0': 'imperial' },
    })
  })
})
