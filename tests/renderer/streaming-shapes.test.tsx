// @vitest-environment jsdom
/**
 * Every shape of answer the UI benchmark streams (bench/ui/shapes.ts), streamed through the
 * real live store a frame at a time into the conversation's answer rows: no block that is
 * finished (nor a finished part of a large one: a run of code lines, of table rows, a list
 * item) renders again while the stream goes on, nothing in a group of finished blocks
 * changes in the page once it is done, and what is shown in the end is what the whole text
 * shows.
 */
import { act, cleanup } from '@testing-library/react'
import type { JSX } from 'react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import {
  REASONING_SHARE,
  SHAPE_NAMES,
  TOKENS_PER_TOOL_CALL,
  TokenSource,
  type ShapeName,
} from '../../bench/ui/shapes'
import { AnswerRow } from '../../src-renderer/src/features/chat/rows/AnswerRow'
import { useConversationRows } from '../../src-renderer/src/features/chat/use-conversation-rows'
import type { AnswerItem } from '../../src-renderer/src/state/turn-reducer'
import { __markdownStats } from '../../src-renderer/src/ui/markdown'
import { updateBlocks, type BlockState } from '../../src-renderer/src/ui/markdown/blocks'
import { renderWithApp } from './support/render-app'

beforeEach(() => __markdownStats.reset(true))
afterEach(() => {
  cleanup()
  __markdownStats.reset(false)
})

/** the tokens of a frame at 1 000 tokens a second */
const PER_FRAME = 17
const NO_MESSAGES = { messages: [], hasMore: false, versions: {} }

/** The conversation's rows of session `s`, without the virtualized list around them. */
function Rows(): JSX.Element {
  const view = useConversationRows('s', NO_MESSAGES)
  return (
    <>
      {view.rows.map((row) =>
        row.kind === 'answer' ? <AnswerRow key={row.key} row={row} /> : null,
      )}
    </>
  )
}

/** A turn streaming `tokens` tokens of a shape, as the host's events, frame by frame. */
function streamOf(shape: ShapeName, tokens: number): SequencedAgentEvent[][] {
  let seq = 0
  const ev = (e: Record<string, unknown>): SequencedAgentEvent =>
    ({ sessionId: 's', turnId: 't', at: 1000 + seq, seq: seq++, ...e }) as SequencedAgentEvent
  const content = new TokenSource(shape, 7)
  const reasoning = new TokenSource('reasoning-text', 8)
  const frames: SequencedAgentEvent[][] = [[ev({ type: 'turn_start', model: 'm', provider: 'p' })]]
  let calls = 0
  for (let sent = 0; sent < tokens;) {
    const frame: SequencedAgentEvent[] = []
    for (let i = 0; i < PER_FRAME; i++, sent++) {
      if (shape === 'reasoning' && sent < tokens * REASONING_SHARE) {
        frame.push(ev({ type: 'reasoning_delta', text: reasoning.next() }))
      } else frame.push(ev({ type: 'text_delta', text: content.next() }))
      if (shape === 'tools' && (sent + 1) % TOKENS_PER_TOOL_CALL === 0) {
        frame.push(...toolRound(ev, `call_${calls++}`))
      }
    }
    frames.push(frame)
  }
  frames.push([ev({ type: 'text_delta', text: content.closing() })])
  return frames
}

/** an answer that ends with a call to list_directory, which runs and answers */
function toolRound(
  ev: (e: Record<string, unknown>) => SequencedAgentEvent,
  id: string,
): SequencedAgentEvent[] {
  return [
    ev({
      type: 'message_saved',
      messageId: `m-${id}`,
      messageSeq: 1,
      role: 'assistant',
      status: 'complete',
    }),
    ev({
      type: 'tool_call',
      id,
      name: 'list_directory',
      server: 'cairn',
      tool: 'list_directory',
      arguments: { path: '.' },
      rawArguments: '{"path":"."}',
      readOnly: true,
    }),
    ev({
      type: 'permission_decision',
      requestId: `r-${id}`,
      toolCallId: id,
      decision: 'allow_once',
      by: 'policy',
    }),
    ev({ type: 'tool_result', id, ok: true, content: 'd0/\nd1/', durationMs: 3, synthetic: false }),
  ]
}

/**
 * What no longer changes in an answer's blocks: the sources of its finished blocks, of their
 * parts, and of the sealed parts of the block still growing.
 */
function settled(state: BlockState): string[] {
  const out: string[] = []
  for (const b of state.blocks.slice(0, state.finished)) {
    out.push(b.source, ...(b.parts ?? []))
  }
  if (state.carry) out.push(...state.carry.parts)
  return out
}

const renders = (source: string): number => __markdownStats.rendersBySource?.get(source) ?? 0

describe('streaming every shape of answer', () => {
  for (const shape of SHAPE_NAMES) {
    it(`${shape}: finished blocks and parts never render again`, async () => {
      const { platform, frames, env, container } = renderWithApp(<Rows />)
      act(() => env.live.setState({ currentId: 's' }))
      const states = new Map<string, BlockState>()
      let checked = 0
      // the reasoning's runs (Thinking): a finished one is never touched again
      const changed = new Set<Node>()
      const observer = new MutationObserver((records) => {
        for (const r of records) changed.add(r.target)
      })
      observer.observe(container, { subtree: true, childList: true, characterData: true })
      let sealedRuns: Element[] = []
      // the groups of finished blocks (drawn by the browser only near the viewport)
      let doneGroups: Element[] = []
      let groupsSeen = 0
      for (const frame of streamOf(shape, shape === 'reasoning' ? 4_000 : 1_500)) {
        // what is settled before this frame, and how often it rendered so far
        const before = [...states.values()].flatMap(settled)
        const counts = before.map(renders)
        act(() => {
          for (const e of frame) platform.emit('agent', e)
          frames.run()
        })
        before.forEach((source, i) => {
          expect(renders(source), `${shape}: ${JSON.stringify(source.slice(0, 80))}`).toBe(
            counts[i],
          )
        })
        checked += before.length
        observer.takeRecords().forEach((r) => changed.add(r.target))
        for (const run of sealedRuns) {
          expect(run.isConnected, 'a finished reasoning run stays').toBe(true)
          for (const node of changed)
            expect(run.contains(node), 'a finished reasoning run').toBe(false)
        }
        for (const group of doneGroups) {
          expect(group.isConnected, 'a done group stays').toBe(true)
          expect(group.className).toContain('md-group-done')
          for (const node of changed) expect(group.contains(node), 'a done group').toBe(false)
        }
        changed.clear()
        sealedRuns = [...container.querySelectorAll('.thinking-run')].slice(0, -1)
        doneGroups = [...container.querySelectorAll('.md-group-done')]
        groupsSeen = Math.max(groupsSeen, doneGroups.length)
        const turn = env.live.getState().sessions['s']?.turn
        for (const it of turn?.items ?? []) {
          if (it.kind !== 'answer') continue
          states.set(it.key, updateBlocks(states.get(it.key) ?? null, (it as AnswerItem).text))
        }
      }
      observer.disconnect()
      expect(checked).toBeGreaterThan(100)
      if (shape === 'reasoning') expect(sealedRuns.length).toBeGreaterThan(2)
      // a shape of many blocks fills groups that are done while the answer still streams
      if (shape === 'small-code') expect(groupsSeen).toBeGreaterThan(0)
      // the end shows the whole text of every answer
      await act(async () => {})
      const shown = (container.textContent ?? '').replace(/\s+/g, ' ')
      for (const state of states.values()) {
        const last = state.blocks[state.blocks.length - 1]
        const words = (last?.source ?? '').match(/[A-Za-z]{4,}/g) ?? []
        for (const w of words.slice(-3)) expect(shown).toContain(w)
      }
    })
  }
})
