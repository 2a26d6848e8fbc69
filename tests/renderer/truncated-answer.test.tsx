/**
 * An answer cut at the model's output limit says so under the answer, with Continue (a new
 * turn asking the model to go on) while it is the newest exchange and nothing runs.
 */
// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AnswerRow } from '../../src-renderer/src/features/chat/rows/AnswerRow'
import {
  RowActionsContext,
  type RowActions,
} from '../../src-renderer/src/features/chat/rows/actions'
import type { Row } from '../../src-renderer/src/state/conversation'
import { renderWithApp } from './support/render-app'

type AnswerRowData = Extract<Row, { kind: 'answer' }>

function row(status: AnswerRowData['answer']['status'], newest: boolean): AnswerRowData {
  return {
    kind: 'answer',
    key: 'a1',
    live: false,
    model: 'm',
    answer: {
      text: 'Here are three reasons:\n\n1. Speed',
      reasoning: '',
      reasoningMs: null,
      reasoningStartedAt: null,
      status,
      tools: [],
    },
    footer: {
      usage: null,
      markdown: 'Here are three reasons:\n\n1. Speed',
      canRegenerate: newest,
      userMessageId: 'u1',
      userText: 'Why local models?',
      versions: null,
      turnId: null,
    },
  }
}

function show(r: AnswerRowData): { sent: string[] } {
  const sent: string[] = []
  const actions: RowActions = { pick: () => {}, resend: () => {}, send: (t) => sent.push(t) }
  renderWithApp(
    <RowActionsContext.Provider value={actions}>
      <AnswerRow row={r} />
    </RowActionsContext.Provider>,
  )
  return { sent }
}

afterEach(cleanup)

describe('an answer cut at the output limit', () => {
  it('says so, and Continue asks the model to go on', () => {
    const { sent } = show(row('truncated', true))
    expect(screen.getByText(/Cut at the model's output limit/)).toBeTruthy()
    fireEvent.click(screen.getByRole('button', { name: 'Continue' }))
    // the window's language is English here: Continue sends chat.continueText in it
    expect(sent).toEqual(['Continue from where you stopped.'])
  })

  it('an older exchange says so without Continue', () => {
    show(row('truncated', false))
    expect(screen.getByText(/Cut at the model's output limit/)).toBeTruthy()
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
  })

  it('a complete answer has neither', () => {
    show(row('complete', true))
    expect(screen.queryByText(/output limit/)).toBeNull()
    expect(screen.queryByRole('button', { name: 'Continue' })).toBeNull()
  })
})
