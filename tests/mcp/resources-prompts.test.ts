/**
 * Resources and prompts of the real server-everything: listed (templates with their
 * variables), read (text and binary) into a message's parts, prompts fetched with their
 * arguments, and the server's list_changed notifications reach the listeners.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ResourcesAndPrompts } from '../../src-main/adapters/mcp/resources-and-prompts'
import type { ResourcesOrPromptsChange } from '../../src-main/core/mcp-ports'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { expandTemplate, templateVariables } from '../../src-main/adapters/mcp/resources'
import { EVERYTHING, fixture, nodeServer, waitFor } from '../support/mcp'

let manager: McpManager
let resourcesAndPrompts: ResourcesAndPrompts
const changes: ResourcesOrPromptsChange[] = []

beforeEach(async () => {
  changes.length = 0
  manager = new McpManager({
    launchStdio: stdioLauncher(),
    clientVersion: 'test',
    onConnected: (server, client) => resourcesAndPrompts.attach(server, client),
  })
  resourcesAndPrompts = new ResourcesAndPrompts(() => manager.sources())
  resourcesAndPrompts.onChange((c) => changes.push(c))
  manager.apply({ everything: nodeServer(EVERYTHING, ['stdio']) })
  await manager.settled(20_000)
})
afterEach(async () => {
  await manager.shutdown()
})

const ctx = () => ({ signal: new AbortController().signal, sessionId: 's', toolCallId: 'c' })

describe('MCP resources', () => {
  it('lists resources and templates, with the variables a template asks for', async () => {
    const r = await resourcesAndPrompts.resources()
    expect(r.errors).toEqual([])
    const doc = r.resources.find((x) => x.uri === 'demo://resource/static/document/features.md')
    expect(doc).toMatchObject({
      server: 'everything',
      name: 'features.md',
      mimeType: 'text/markdown',
    })
    const text = r.templates.find(
      (t) => t.uriTemplate === 'demo://resource/dynamic/text/{resourceId}',
    )
    expect(text).toMatchObject({ server: 'everything', variables: ['resourceId'] })
  })

  it('reads a text resource into a link (the chip) and its text', async () => {
    const parts = await resourcesAndPrompts.read({
      server: 'everything',
      uri: 'demo://resource/static/document/features.md',
      name: 'features.md',
    })
    expect(parts[0]).toEqual({
      type: 'resource_link',
      uri: 'demo://resource/static/document/features.md',
      name: 'features.md',
      mimeType: 'text/markdown',
    })
    expect(parts[1]).toMatchObject({ type: 'resource', mimeType: 'text/markdown' })
    expect(parts[1]?.type === 'resource' && parts[1].text).toMatch(/#/)
  })

  it('fills a template and reads text and binary content', async () => {
    const text = await resourcesAndPrompts.read({
      server: 'everything',
      uriTemplate: 'demo://resource/dynamic/text/{resourceId}',
      values: { resourceId: '7' },
    })
    expect(text[1]).toMatchObject({
      type: 'resource',
      uri: 'demo://resource/dynamic/text/7',
      text: expect.stringMatching(/^Resource 7: This is a plaintext resource/),
    })
    const blob = await resourcesAndPrompts.read({
      server: 'everything',
      uriTemplate: 'demo://resource/dynamic/blob/{resourceId}',
      values: { resourceId: '3' },
    })
    expect(blob[1]).toMatchObject({
      type: 'resource',
      text: expect.stringMatching(/^\[binary content \(text\/plain, about \d+ bytes\), not shown/),
    })
  })

  it('a resource the server does not have is a clear error', async () => {
    await expect(
      resourcesAndPrompts.read({ server: 'everything', uri: 'demo://resource/dynamic/text/0' }),
    ).rejects.toThrow(/could not read demo:\/\/resource\/dynamic\/text\/0/)
    await expect(resourcesAndPrompts.read({ server: 'nope', uri: 'x://y' })).rejects.toThrow(
      /not running/,
    )
  })

  it('resources/list_changed reaches the listeners and the new resource is listed', async () => {
    const before = await resourcesAndPrompts.resources()
    const conn = manager.get('everything')!
    await conn.call(
      'gzip-file-as-resource',
      { name: 'note.txt.gz', data: 'data:text/plain,hello%20cairn', outputType: 'resourceLink' },
      ctx(),
    )
    await waitFor(() => changes.some((c) => c.what === 'resources'), 10_000, 'list_changed')
    const after = await resourcesAndPrompts.resources()
    const added = after.resources.filter((r) => !before.resources.some((b) => b.uri === r.uri))
    expect(added.map((r) => r.name)).toContain('note.txt.gz')
  })
})

describe('resource subscriptions', () => {
  it('listing subscribes to the resources; their updates reach the listeners', async () => {
    await resourcesAndPrompts.resources()
    changes.length = 0
    await manager.get('everything')!.call('toggle-subscriber-updates', {}, ctx())
    await waitFor(() => changes.some((c) => c.what === 'resources'), 15_000, 'resources/updated')
    expect(changes[0]).toEqual({ server: 'everything', what: 'resources' })
  })
})

describe('MCP prompts', () => {
  it('lists prompts with their arguments and fetches one with its values', async () => {
    const { prompts, errors } = await resourcesAndPrompts.prompts()
    expect(errors).toEqual([])
    const args = prompts.find((p) => p.name === 'args-prompt')
    expect(args).toMatchObject({
      server: 'everything',
      title: 'Arguments Prompt',
      arguments: [
        { name: 'city', required: true },
        { name: 'state', required: false },
      ],
    })
    const messages = await resourcesAndPrompts.prompt('everything', 'args-prompt', { city: 'Oslo' })
    expect(messages).toEqual([{ role: 'user', text: "What's weather in Oslo?" }])
  })

  it("a missing required argument is the server's error, said clearly", async () => {
    await expect(resourcesAndPrompts.prompt('everything', 'args-prompt', {})).rejects.toThrow(
      /could not give the prompt args-prompt/,
    )
  })
})

describe('URI templates', () => {
  it('finds the variables and expands them, encoding values', () => {
    expect(templateVariables('file:///{+path}{?q,lang}')).toEqual(['path', 'q', 'lang'])
    expect(expandTemplate('demo://x/{id}', { id: 'a b/c' })).toBe('demo://x/a%20b%2Fc')
    expect(expandTemplate('file:///{+path}{?q}', { path: 'a/b c', q: 'x&y' })).toBe(
      'file:///a/b%20c?q=x%26y',
    )
  })
})

describe('prompts/list_changed', () => {
  it('a prompt added while the server runs is listed after its notification, no restart', async () => {
    manager.apply({
      everything: nodeServer(EVERYTHING, ['stdio']),
      changing: nodeServer(fixture('changing-prompts.mjs')),
    })
    await manager.settled(20_000)
    const names = async () =>
      (await resourcesAndPrompts.prompts()).prompts
        .filter((p) => p.server === 'changing')
        .map((p) => p.name)
    expect(await names()).toEqual(['first'])
    const conn = manager.get('changing')!
    const pid = conn.info().pid
    changes.length = 0
    await conn.call('add_prompt', {}, ctx())
    await waitFor(() => changes.some((c) => c.what === 'prompts'), 10_000, 'prompts/list_changed')
    expect(changes.find((c) => c.what === 'prompts')).toEqual({
      server: 'changing',
      what: 'prompts',
    })
    expect(await names()).toEqual(['first', 'second'])
    expect(conn.info().pid).toBe(pid)
    expect(await resourcesAndPrompts.prompt('changing', 'second', { topic: 'stones' })).toEqual([
      { role: 'user', text: 'Prompt second about stones' },
    ])
  })
})
