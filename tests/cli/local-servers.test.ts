/**
 * The CLI against scripted local servers of each kind, as a new user would run it: an
 * Ollama model gets its full context window through the native API, a model without tools
 * is not sent any, and the window a server reports is the one the conversation is fitted to.
 */
import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { buildCurl } from '../../src-renderer/src/features/chat/inspector/curl'
import { runCli } from '../support/cli'
import { ollamaRoutes, startRouteServer, type RouteServer } from '../support/route-server'

let server: RouteServer | null = null
let dataDir: string
let env: NodeJS.ProcessEnv
beforeEach(() => {
  dataDir = mkdtempSync(join(tmpdir(), 'cairn-cli-'))
  env = { CAIRN_DATA_DIR: dataDir, CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1' }
})
afterEach(async () => {
  await server?.close()
  server = null
  rmSync(dataDir, { recursive: true, force: true })
})

type Event = { type: string; [k: string]: unknown }
const events = (stdout: string): Event[] =>
  stdout
    .split('\n')
    .filter(Boolean)
    .map((l) => JSON.parse(l) as Event)

const answer = {
  ndjson: [
    { model: 'qwen3', message: { role: 'assistant', content: '', thinking: 'Hmm.' }, done: false },
    { model: 'qwen3', message: { role: 'assistant', content: 'A pile of stones.' }, done: false },
    {
      model: 'qwen3',
      message: { role: 'assistant', content: '' },
      done: true,
      done_reason: 'stop',
      prompt_eval_count: 30,
      eval_count: 5,
    },
  ],
}

describe('Ollama', () => {
  it("gets the model's trained context (capped at 32 768) as num_ctx, thinks, and answers", async () => {
    server = await startRouteServer({
      ...ollamaRoutes({
        model: 'qwen3',
        capabilities: ['completion', 'tools', 'thinking'],
        trainedContext: 40_960,
        loadedContext: 4_096,
      }),
      'POST /api/chat': answer,
    })
    const r = await runCli(
      ['--base-url', `${server.root}/v1`, '--model', 'qwen3', '--json', 'What is a cairn?'],
      { env },
    )
    expect(r.stderr).toBe('')
    expect(r.code).toBe(0)
    const chat = server.requests.filter((q) => q.path === '/api/chat')
    expect(chat).toHaveLength(1)
    expect(chat[0]!.body).toMatchObject({ options: { num_ctx: 32_768 }, think: true, stream: true })
    expect(chat[0]!.body.tools.length).toBeGreaterThan(0)
    const evs = events(r.stdout)
    expect(evs.filter((e) => e.type === 'reasoning_delta').map((e) => e.text)).toEqual(['Hmm.'])
    expect(evs.filter((e) => e.type === 'text_delta').map((e) => e.text)).toEqual([
      'A pile of stones.',
    ])
    expect(evs.find((e) => e.type === 'usage')).toMatchObject({ inputTokens: 30, outputTokens: 5 })
    expect(evs.at(-1)).toMatchObject({ type: 'turn_end', reason: 'completed' })
    // the turn log keeps what went to the native endpoint, and "Copy as curl" sends it there
    const logs = join(dataDir, 'logs', 'sessions', String(evs[0]!['sessionId']))
    const file = readdirSync(logs).find((f) => f.endsWith('-request.json'))!
    const logged = JSON.parse(readFileSync(join(logs, file), 'utf8')) as {
      baseURL: string
      body: { options: unknown }
    }
    expect(logged.baseURL).toBe(`${server.root}/api/chat`)
    expect(logged.body.options).toEqual({ num_ctx: 32_768 })
    expect(buildCurl(logged.baseURL, logged.body)).toContain(`curl '${server.root}/api/chat'`)
  })

  it('--context-window sets num_ctx for the run; a model without tools is sent none, with a notice', async () => {
    server = await startRouteServer({
      ...ollamaRoutes({ model: 'qwen3', capabilities: ['completion'], trainedContext: 40_960 }),
      'POST /api/chat': answer,
    })
    const r = await runCli(
      ['--base-url', `${server.root}/v1`, '--model', 'qwen3', '--context-window', '2000', 'Hi'],
      { env },
    )
    expect(r.code).toBe(0)
    expect(r.stdout).toBe('A pile of stones.\n')
    const body = server.requests.find((q) => q.path === '/api/chat')!.body
    expect(body.options).toEqual({ num_ctx: 2_000 })
    expect(body.tools).toBeUndefined()
    expect(body.think).toBeUndefined()
    expect(r.stderr).toContain('qwen3 cannot use tools (the server says so)')
  })
})

describe('--think', () => {
  it('switches the thinking of a model that thinks; anything but on or off is a usage error', async () => {
    server = await startRouteServer({
      ...ollamaRoutes({ model: 'qwen3', capabilities: ['completion', 'thinking'] }),
      'POST /api/chat': answer,
    })
    const base = ['--base-url', `${server.root}/v1`, '--model', 'qwen3']
    const r = await runCli([...base, '--think', 'off', 'Hi'], { env })
    expect(r.code).toBe(0)
    expect(server.requests.find((q) => q.path === '/api/chat')!.body.think).toBe(false)
    const bad = await runCli([...base, '--think', 'maybe', 'Hi'], { env })
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('--think must be on or off, not "maybe"')
  })
})

describe('LM Studio', () => {
  it("fits a continued conversation into the model's loaded context length", async () => {
    const chunk = (delta: Record<string, unknown>, finish: string | null = null) => ({
      id: 'c',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'llama-3.2-1b',
      choices: [{ index: 0, delta, finish_reason: finish }],
    })
    server = await startRouteServer({
      'GET /api/v0/models': {
        json: {
          data: [
            {
              id: 'llama-3.2-1b',
              type: 'llm',
              loaded_context_length: 2_048,
              max_context_length: 131_072,
            },
          ],
        },
      },
      'POST /v1/chat/completions': { sse: [chunk({ content: 'Noted.' }), chunk({}, 'stop')] },
    })
    const base = ['--base-url', `${server.root}/v1`, '--model', 'llama-3.2-1b', '--json']
    const first = await runCli([...base, `Remember this: ${'stones '.repeat(2_000)}`], { env })
    expect(first.code).toBe(0)
    const sessionId = events(first.stdout)[0]!['sessionId'] as string
    const second = await runCli([...base, '--session', sessionId, 'What did I say?'], { env })
    expect(second.code).toBe(0)
    const notice = events(second.stdout).find(
      (e) => e.type === 'notice' && /fit the context/.test(String(e['message'])),
    )
    expect(notice?.['message']).toContain('context window (2048 tokens)')
    const chats = server.requests.filter((q) => q.path === '/v1/chat/completions')
    const sent = JSON.stringify(chats[1]!.body.messages)
    expect(sent).not.toContain('stones stones')
    expect(sent).toContain('What did I say?')
  })
})
