/** The turn inspector's "Copy as curl": a real shell reads back exactly the request body. */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { buildCurl, shellQuote } from '../../src-renderer/src/features/chat/inspector/curl'
import {
  callView,
  loadTurnCalls,
  type FetchLogs,
} from '../../src-renderer/src/features/chat/inspector/turn-calls'

/** Runs the command in sh with a `curl` that prints its arguments, NUL-separated. */
function argsOf(command: string): string[] {
  const out = execFileSync(
    '/bin/sh',
    [
      '-c',
      `curl() { for a in "$@"; do printf '%s\\0' "$a"; done; }\nCAIRN_API_KEY=sk-from-env\n${command}`,
    ],
    { encoding: 'utf8' },
  )
  return out.split('\0').slice(0, -1)
}

describe('Copy as curl', () => {
  it("quotes ' and newlines so that the shell passes the body through unchanged", () => {
    const body = {
      model: 'm',
      stream: true,
      messages: [{ role: 'user', content: "It's a \"cairn\"\nline two\n$HOME `id` \\ '' end" }],
    }
    const command = buildCurl('http://127.0.0.1:1234/v1/', body)
    expect(command).not.toContain('sk-')
    const args = argsOf(command)
    expect(args[0]).toBe('http://127.0.0.1:1234/v1/chat/completions')
    expect(args).toContain('Authorization: Bearer sk-from-env')
    expect(args).toContain('Content-Type: application/json')
    const data = args[args.indexOf('--data-raw') + 1]!
    expect(JSON.parse(data)).toEqual(body)
  })

  it('single-quotes one word', () => {
    expect(shellQuote("a'b")).toBe(`'a'\\''b'`)
    expect(argsOf(`curl ${shellQuote("x'\ny")}`)).toEqual(["x'\ny"])
  })
})

describe('a logged call', () => {
  it('shows what the log recorded, and survives a missing response', () => {
    const v = callView({
      number: 3,
      request: {
        turnId: 't',
        round: 2,
        attempt: 1,
        timestamp: '2025-01-01T00:00:00.000Z',
        model: 'm',
        baseURL: 'http://x/v1',
        body: { a: 1 },
      },
      response: {
        latencyMs: 120,
        timeToFirstTokenMs: 30,
        retries: [{ attempt: 1, reason: 'rate_limited', delayMs: 500 }],
        usage: { inputTokens: 10, outputTokens: 5, estimated: false },
        status: 'complete',
        error: null,
      },
    })
    expect(v).toMatchObject({
      number: 3,
      round: 2,
      model: 'm',
      latencyMs: 120,
      timeToFirstTokenMs: 30,
      retries: [{ attempt: 1, reason: 'rate_limited', delayMs: 500 }],
      usage: { inputTokens: 10, outputTokens: 5, estimated: false },
      body: { a: 1 },
    })
    expect(callView({ number: 1, request: null, response: null })).toMatchObject({
      latencyMs: null,
      retries: [],
      usage: null,
      body: null,
    })
  })
})

describe("finding a turn's calls", () => {
  it('reads from the newest page back, and only as far as the turn goes', async () => {
    const items = Array.from({ length: 450 }, (_, i) => ({
      number: i + 1,
      request: { turnId: i >= 199 && i < 203 ? 'wanted' : `t${i}`, body: {} },
      response: { latencyMs: i },
    }))
    const pages: { offset?: number; limit?: number }[] = []
    const fetchLogs: FetchLogs = async (p) => {
      pages.push(p)
      const offset = p.offset ?? 0
      return { total: items.length, items: items.slice(offset, offset + (p.limit ?? 20)) }
    }
    const calls = await loadTurnCalls(fetchLogs, 'wanted')
    expect(calls.map((c) => c.number)).toEqual([200, 201, 202, 203])
    // the count, then 250–450, 50–250: the turn starts inside that page, so no more
    expect(pages).toEqual([{ limit: 1 }, { offset: 250, limit: 200 }, { offset: 50, limit: 200 }])
  })
})
