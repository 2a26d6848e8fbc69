/**
 * MCP resources and prompts from the CLI, against the real server-everything: `@server:uri`
 * attaches a resource to a one-shot or a REPL message the way the window's `@` picker does
 * (the model's request carries it, the stored message keeps it), `/resources` lists them,
 * and a server's prompt (`--mcp-prompt`, `/server:prompt`) becomes the user's message,
 * marked with where it came from, its missing required argument asked on a terminal.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { EVERYTHING } from '../support/mcp'
import { textReply, type ScriptedServer } from '../support/openai-server'
import { startCliOnTerminal } from '../support/pty-cli'

let server: ScriptedServer
let env: NodeJS.ProcessEnv
let configFile: string
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, env, configFile, stop } = await startCliEnv({
    prefix: 'cairn-cli-resources-',
    models: ['m'],
    mcpServers: { everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] } },
  }))
})
afterEach(() => stop())

const DOC = 'demo://resource/static/document/instructions.md'

type Body = { messages: { role: string; content: unknown }[] }
const userTexts = (i: number): string[] =>
  (server.requests[i]?.body as Body).messages
    .filter((m) => m.role === 'user')
    .map((m) => (typeof m.content === 'string' ? m.content : JSON.stringify(m.content)))

type Stored = { role: string; content: string; parts: unknown[] | null }
async function firstUserMessage(): Promise<Stored> {
  const list = await runCli(['sessions', 'list', '--json'], { env })
  const [s] = (JSON.parse(list.stdout) as { sessions: { id: string }[] }).sessions
  const shown = await runCli(['sessions', 'show', s!.id, '--json'], { env })
  return (JSON.parse(shown.stdout) as { messages: Stored[] }).messages.find(
    (m) => m.role === 'user',
  )!
}

describe('@server:uri in a message', () => {
  it('a one-shot turn attaches the resource as the window does', async () => {
    server.enqueue(textReply('Read it.'))
    const r = await runCli(['--mcp-config', configFile, `Summarize @everything:${DOC} please`], {
      env,
    })
    expect(r.stderr).not.toMatch(/Error/)
    expect(r.code).toBe(0)
    const [first] = userTexts(0)
    expect(first).toMatch(
      /^Summarize please\n\n\[Attached resource demo:\/\/resource\/static\/document\/instructions\.md \(text\/markdown\)\]\n/,
    )
    const stored = await firstUserMessage()
    expect(stored.content).toBe('Summarize please')
    expect(stored.parts?.[0]).toEqual({
      type: 'resource_link',
      uri: DOC,
      name: 'instructions.md',
      mimeType: 'text/markdown',
    })
  })

  it('a resource that cannot be read sends nothing and says why; @someone:else is text', async () => {
    const bad = await runCli(
      ['--mcp-config', configFile, 'Look at @everything:demo://resource/dynamic/text/0'],
      { env },
    )
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(/could not read demo:\/\/resource\/dynamic\/text\/0/)
    expect(server.requests).toHaveLength(0)
    server.enqueue(textReply('ok'))
    const plain = await runCli(['--mcp-config', configFile, 'mail @bob:home about it'], { env })
    expect(plain.code).toBe(0)
    expect(userTexts(0)).toEqual(['mail @bob:home about it'])
  })

  it('in cairn chat: /resources lists them and a line with @ attaches one', async () => {
    server.enqueue(textReply('Read it.'))
    const r = await runCli(['chat', '--mcp-config', configFile], {
      env,
      input: `/resources\n@everything:${DOC} What does it say?\n`,
    })
    expect(r.code).toBe(0)
    expect(r.stderr).toContain('Resources (put @server:uri in a message to attach one):')
    expect(r.stderr).toContain(`@everything:${DOC}`)
    expect(r.stderr).toContain('@everything:demo://resource/dynamic/text/{resourceId}')
    expect(userTexts(0)[0]).toMatch(
      /^What does it say\?\n\n\[Attached resource demo:\/\/resource\/static\/document\/instructions\.md/,
    )
  })
})

describe("a server's prompt", () => {
  it('--mcp-prompt sends its messages as the user message, marked with where they came from', async () => {
    server.enqueue(textReply('Sunny.'))
    const r = await runCli(
      ['--mcp-config', configFile, '--mcp-prompt', 'everything:args-prompt', 'city=Oslo'],
      { env },
    )
    expect(r.code).toBe(0)
    expect(userTexts(0)).toEqual(["What's weather in Oslo?"])
    const stored = await firstUserMessage()
    expect(stored.parts).toEqual([
      {
        type: 'resource_link',
        uri: 'mcp-prompt:everything/args-prompt',
        name: '/everything:args-prompt',
      },
    ])
  })

  it('without a terminal a missing required argument is named and nothing is sent', async () => {
    const r = await runCli(['--mcp-config', configFile, '--mcp-prompt', 'everything:args-prompt'], {
      env,
    })
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('/everything:args-prompt needs city: give each as name=value')
    expect(server.requests).toHaveLength(0)
  })

  it('in cairn chat on a terminal: /server:prompt asks for the missing argument', async () => {
    server.enqueue(textReply('Rainy.'))
    const t = startCliOnTerminal(['chat', '--mcp-config', configFile], { env })
    await t.waitFor('you> ')
    t.type('/everything:args-prompt state="Western Norway"\r')
    await t.waitFor('/everything:args-prompt needs:')
    await t.waitFor('city (Name of the city): ')
    t.type('Bergen\r')
    await t.waitFor('Rainy.')
    await t.waitFor('you> ', t.text().lastIndexOf('Rainy.'))
    t.type('/quit\r')
    expect((await t.done).code).toBe(0)
    expect(userTexts(0)).toEqual(["What's weather in Bergen, Western Norway?"])
  })

  it('an unknown prompt is said, with the ones there are', async () => {
    const r = await runCli(['chat', '--mcp-config', configFile], {
      env,
      input: '/everything:nope\n/prompts\n',
    })
    expect(r.stderr).toContain('No running server offers the prompt /everything:nope.')
    expect(r.stderr).toContain('/everything:args-prompt city=… state=… (optional)')
    expect(server.requests).toHaveLength(0)
  })
})
