// @vitest-environment jsdom
import { cleanup, screen, within } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { SequencedAgentEvent } from '../../src-preload/contract/app-events'
import { ToolCallCard } from '../../src-renderer/src/features/chat/ToolCallCard'
import {
  applyEvents,
  newTurn,
  type AnswerItem,
  type ToolView,
} from '../../src-renderer/src/state/turn-reducer'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

let seq = 0
function ev(e: Record<string, unknown>): SequencedAgentEvent {
  return { sessionId: 's', turnId: 't', at: 1000 + seq, seq: seq++, ...e } as SequencedAgentEvent
}

function toolAfter(events: Record<string, unknown>[]): ToolView {
  seq = 0
  const view = applyEvents(newTurn('t', 's'), [
    ev({ type: 'turn_start', model: 'm', provider: 'p' }),
    ev({
      type: 'tool_call',
      id: 'c1',
      name: 'everything__slow',
      server: 'everything',
      tool: 'slow',
      arguments: {},
      rawArguments: '{}',
      readOnly: false,
    }),
    ev({
      type: 'permission_decision',
      requestId: 'r',
      toolCallId: 'c1',
      decision: 'allow_once',
      by: 'user',
    }),
    ...events.map(ev),
  ]).view
  return (view.items.find((i) => i.kind === 'answer') as AnswerItem).tools[0]!
}

/** the tool's server asks the user something */
const asks = {
  type: 'elicitation_request',
  requestId: 'q',
  toolCallId: 'c1',
  server: 'everything',
  mode: 'form',
  message: 'Name?',
}

describe('a running tool on its card', () => {
  it('shows a progress bar when the tool gives a total, with the latest count', () => {
    const tool = toolAfter([
      { type: 'tool_progress', id: 'c1', progress: 1, total: 5 },
      { type: 'tool_progress', id: 'c1', progress: 3, total: 5, message: 'copying' },
    ])
    renderWithApp(<ToolCallCard tool={tool} />, {})
    const bar = screen.getByRole('progressbar', { name: 'Progress of slow' }) as HTMLProgressElement
    expect(bar.value).toBe(3)
    expect(bar.max).toBe(5)
    expect(screen.getByText('copying · 3 of 5')).toBeTruthy()
  })

  it('without a total shows the message and the count, no bar', () => {
    const tool = toolAfter([
      { type: 'tool_progress', id: 'c1', progress: 42, message: 'rows read' },
    ])
    renderWithApp(<ToolCallCard tool={tool} />, {})
    expect(screen.queryByRole('progressbar')).toBeNull()
    expect(screen.getByText('rows read · 42 so far')).toBeTruthy()
  })

  it('says it waits for the user while its server asks, and runs again once answered', () => {
    const asking = toolAfter([asks])
    renderWithApp(<ToolCallCard tool={asking} />, {})
    const card = screen.getByRole('region', { name: 'Tool call slow on everything' })
    expect(within(card).getByRole('status').textContent).toBe('Waiting for your answer')
    cleanup()
    const answered = toolAfter([
      asks,
      { type: 'elicitation_resolved', requestId: 'q', toolCallId: 'c1', action: 'accept' },
    ])
    renderWithApp(<ToolCallCard tool={answered} />, {})
    expect(screen.getByRole('status').textContent).toMatch(/^Running/)
  })

  it('a finished tool shows no progress', () => {
    const tool = toolAfter([
      { type: 'tool_progress', id: 'c1', progress: 5, total: 5 },
      { type: 'tool_result', id: 'c1', ok: true, content: 'done', durationMs: 5, synthetic: false },
    ])
    renderWithApp(<ToolCallCard tool={tool} />, {})
    expect(screen.queryByRole('progressbar')).toBeNull()
  })
})
