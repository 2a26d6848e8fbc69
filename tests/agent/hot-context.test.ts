/**
 * The system prompt assembled before every model call: the user's prompt, then the
 * environment, then the todo list and the files the session's tools used.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { filesTouched, hotSystemPrompt, MAX_FILES } from '../../src-main/core/agent/hot-context'
import { createHarness, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'
import { descriptor } from '../support/test-tools'

const call = (name: string, args: unknown) =>
  ({
    role: 'assistant',
    toolCalls: [{ id: `c${Math.random()}`, name, arguments: JSON.stringify(args) }],
  }) as unknown as StoredMessage

const NOON = Date.UTC(2026, 10, 24, 12, 0, 0)

describe('the assembled system prompt', () => {
  it('puts the stable part first and what changes last', () => {
    const text = hotSystemPrompt({
      userPrompt: 'Answer briefly.',
      environment: { os: 'Linux 6.1 (x64)', workspace: '/home/me/Cairn' },
      now: NOON,
      todos: [
        { id: '1', content: 'read the notes', status: 'completed' },
        { id: '2', content: 'write the summary', status: 'in_progress' },
      ],
      history: [call('read_file', { path: 'notes.md' }), call('write_file', { path: 'out.md' })],
    })!
    const order = [
      'Answer briefly.',
      "Today's date: 2026-11-24",
      'Operating system: Linux 6.1 (x64)',
      'Workspace folder (where the file tools work): /home/me/Cairn',
      '[x] read the notes',
      '[~] write the summary',
      '- out.md (written)',
      '- notes.md (read)',
    ].map((s) => text.indexOf(s))
    expect(order.every((i) => i >= 0)).toBe(true)
    expect([...order].sort((a, b) => a - b)).toEqual(order)
  })

  it('is the same all day: the date, not the time', () => {
    const at = (now: number) =>
      hotSystemPrompt({
        userPrompt: null,
        environment: { os: 'x', workspace: null },
        now,
        todos: [],
        history: [],
      })
    expect(at(NOON)).toBe(at(NOON + 3 * 3600_000))
    expect(at(NOON)).not.toBe(at(NOON + 24 * 3600_000))
  })

  it('without an environment it is the user prompt alone, as before', () => {
    expect(hotSystemPrompt({ userPrompt: 'Hi.', now: NOON, todos: [], history: [] })).toBe('Hi.')
    expect(hotSystemPrompt({ userPrompt: null, now: NOON, todos: [], history: [] })).toBeNull()
  })

  it('lists files once, most recent first, capped, on one line each; ignores other tools and bad arguments', () => {
    const history = [
      call('read_file', { path: 'a.md' }),
      call('edit_file', { path: 'a.md' }),
      call('everything__read_file', { path: 'not-ours.md' }),
      call('run_command', { command: 'cat b.md' }),
      {
        role: 'assistant',
        toolCalls: [{ id: 'x', name: 'read_file', arguments: '{not json' }],
      } as unknown as StoredMessage,
      call('read_file', { path: 'evil\nname.md' }),
      ...Array.from({ length: 30 }, (_, i) => call('list_directory', { path: `dir${i}` })),
    ]
    const files = filesTouched(history)
    expect(files).toHaveLength(MAX_FILES)
    expect(files[0]).toEqual({ path: 'dir29', how: 'read' })
    const all = filesTouched(history, 100)
    expect(all.map((f) => f.path)).toContain('evil name.md')
    expect(all.filter((f) => f.path === 'a.md')).toEqual([{ path: 'a.md', how: 'written' }])
    expect(all.map((f) => f.path)).not.toContain('not-ours.md')
  })

  it('leaves out a call that failed or was denied', () => {
    const denied = call('write_file', { path: 'secret.md' })
    const id = denied.toolCalls![0]!.id
    const result = {
      role: 'tool',
      toolCallId: id,
      isError: true,
      failureKind: 'denied',
    } as unknown as StoredMessage
    expect(
      filesTouched([call('read_file', { path: 'ok.md' }), denied, result]).map((f) => f.path),
    ).toEqual(['ok.md'])
  })
})

describe('in a turn', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => {
    await h.close()
  })

  it('each round gets the prompt afresh: a file read in round one is listed in round two', async () => {
    h.server.enqueue(
      toolCallsReply([{ id: 'r1', name: 'read_file', arguments: '{"path":"plan.md"}' }]),
      textReply('Done.'),
    )
    h.tools.add(
      descriptor('read_file', 'Reads a file.', { path: { type: 'string' } }, true),
      async () => ({
        content: [{ type: 'text', text: 'the plan' }],
      }),
    )
    await h.turn('read the plan', {
      policy: 'allow-all',
      environment: { os: 'Linux 6.1 (x64)', workspace: '/w' },
    })
    const systems = h.server.requests.map(
      (r) => (r.body as { messages: { role: string; content: string }[] }).messages[0]!,
    )
    expect(systems.every((m) => m.role === 'system')).toBe(true)
    expect(systems[0]!.content).not.toContain('plan.md')
    expect(systems[1]!.content).toContain('- plan.md (read)')
  })
})
