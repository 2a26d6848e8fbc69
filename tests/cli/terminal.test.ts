import { describe, expect, it } from 'vitest'
import { parseAnswer, terminalApprover } from '../../src-main/cli/approver'
import { TextRenderer } from '../../src-main/cli/output'
import type { AgentEvent, ApprovalRequestEvent } from '../../src-preload/contract/events'
import { fakeStream as stream } from '../support/fake-terminal'

const request: ApprovalRequestEvent = {
  type: 'permission_request',
  sessionId: 's',
  turnId: 't',
  at: 0,
  requestId: 'r1',
  toolCallId: 'c1',
  name: 'files__write_file',
  server: 'files',
  tool: 'write_file',
  description: 'Writes a file',
  arguments: { path: 'notes.txt', content: 'hello' },
  annotations: {},
  trusted: false,
}

describe('the terminal approver', () => {
  it('understands y, a, n and a bare Enter (deny)', () => {
    expect(parseAnswer('y')).toBe('allow_once')
    expect(parseAnswer(' YES ')).toBe('allow_once')
    expect(parseAnswer('a')).toBe('allow_always')
    expect(parseAnswer('always')).toBe('allow_always')
    expect(parseAnswer('n')).toBe('deny')
    expect(parseAnswer('')).toBe('deny')
    expect(parseAnswer('maybe')).toBeNull()
  })

  it('without a terminal denies and says so', async () => {
    const input = stream(false)
    const output = stream(false)
    const answer = await terminalApprover(input, output, () => {}).request(
      request,
      new AbortController().signal,
    )
    expect(answer.decision).toBe('deny')
    expect(output.text()).toMatch(/no terminal to ask/)
    expect(output.text()).toMatch(/--approve all/)
  })

  it('on a terminal shows the tool, its server and the full arguments, and asks again on a bad answer', async () => {
    const input = stream(true)
    const output = stream(true)
    const pending = terminalApprover(input, output, () => {}).request(
      request,
      new AbortController().signal,
    )
    await new Promise((r) => setTimeout(r, 20))
    input.write('what\n')
    await new Promise((r) => setTimeout(r, 20))
    input.write('a\n')
    expect((await pending).decision).toBe('allow_always')
    const shown = output.text()
    expect(shown).toContain('write_file')
    expect(shown).toContain('files (annotations not trusted)')
    expect(shown).toContain('"content": "hello"')
    expect(shown).toContain('Please answer y, a or n.')
  })

  it('gives up when the turn is stopped while it waits', async () => {
    const stop = new AbortController()
    const pending = terminalApprover(stream(true), stream(true), () => {}).request(
      request,
      stop.signal,
    )
    stop.abort(new Error('stopped'))
    await expect(pending).rejects.toThrow('stopped')
  })
})

function ev(e: Record<string, unknown>): AgentEvent {
  return { sessionId: 's', turnId: 't', at: 0, ...e } as AgentEvent
}

describe('the text renderer', () => {
  it('erases a discarded partial answer on a terminal', () => {
    const stdout = stream(true, 20)
    const stderr = stream(true)
    const r = new TextRenderer({ stdout, stderr })
    r.handle(ev({ type: 'text_delta', text: 'Partial answer that wraps the line' }))
    r.handle(
      ev({
        type: 'retry',
        attempt: 2,
        maxAttempts: 4,
        delayMs: 500,
        reason: 'connection reset',
        discardPartial: true,
      }),
    )
    r.handle(ev({ type: 'text_delta', text: 'Full answer.' }))
    r.handle(
      ev({
        type: 'message_saved',
        messageId: 'm',
        messageSeq: 2,
        role: 'assistant',
        status: 'complete',
      }),
    )
    r.handle(ev({ type: 'turn_end', reason: 'completed' }))
    // 34 characters on a 20-column terminal: one row up, back to column 1, clear below
    expect(stdout.text()).toBe(
      'Partial answer that wraps the line\x1b[1A\x1b[1G\x1b[JFull answer.\n',
    )
    expect(stderr.text()).toMatch(/Retrying \(attempt 2 of 4\) in 0.5 s: connection reset/)
  })

  it('on a pipe says on stderr which text to drop', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = new TextRenderer({ stdout, stderr })
    r.handle(ev({ type: 'text_delta', text: 'Partial' }))
    r.handle(
      ev({
        type: 'retry',
        attempt: 2,
        maxAttempts: 4,
        delayMs: 500,
        reason: 'x',
        discardPartial: true,
      }),
    )
    expect(stderr.text()).toMatch(/the 7 characters of the answer printed just now are discarded/)
  })

  it('puts tool activity and errors on stderr, never on stdout', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = new TextRenderer({ stdout, stderr })
    r.handle(
      ev({
        type: 'tool_call',
        id: 'c',
        name: 'read',
        server: 's',
        tool: 'read',
        arguments: {},
        rawArguments: '{}',
        readOnly: true,
      }),
    )
    r.handle(
      ev({
        type: 'tool_result',
        id: 'c',
        ok: false,
        content: 'boom',
        durationMs: 3,
        synthetic: true,
        failureKind: 'denied',
      }),
    )
    r.handle(
      ev({
        type: 'turn_end',
        reason: 'error',
        error: { code: 'auth', message: 'The API key was rejected.' },
      }),
    )
    expect(stdout.text()).toBe('')
    expect(stderr.text()).toContain('→ read {}')
    expect(stderr.text()).toContain('✗ read [denied] (3 ms): boom')
    expect(stderr.text()).toContain('Error: The API key was rejected.')
  })

  it('says on stderr when a remembered rule or the policy decided, not when the user did', () => {
    const stdout = stream(false)
    const stderr = stream(false)
    const r = new TextRenderer({ stdout, stderr })
    const decided = (by: string, decision: string) =>
      r.handle(ev({ type: 'permission_decision', requestId: 'r', toolCallId: 'c', decision, by }))
    decided('rule', 'allow_always')
    decided('policy', 'deny')
    decided('user', 'allow_once')
    expect(stderr.text()).toBe(
      '  allowed by a remembered "always allow" rule\n  denied by the permission policy\n',
    )
    expect(stdout.text()).toBe('')
  })
})
