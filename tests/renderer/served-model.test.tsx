/** Under an answer, the window says which model answered when the server named another one. */
// @vitest-environment jsdom
import { cleanup, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import { AnswerRow } from '../../src-renderer/src/features/chat/rows/AnswerRow'
import { RowActionsContext } from '../../src-renderer/src/features/chat/rows/actions'
import { storedRows, type Row } from '../../src-renderer/src/state/conversation'
import { messageBuilder } from '../support/stored-messages'
import { renderWithApp } from './support/render-app'

type AnswerRowData = Extract<Row, { kind: 'answer' }>

function answerRow(servedModel: string | null): AnswerRowData {
  const m = messageBuilder()
  const messages = [
    m({ role: 'user', content: 'hi', turnId: 't1' }),
    m({ role: 'assistant', content: 'Hello.', turnId: 't1', model: 'gpt-4o', servedModel }),
  ]
  const rows = storedRows({ messages, liveTurnId: null, hiding: null, busy: false })
  return rows.find((r): r is AnswerRowData => r.kind === 'answer')!
}

function show(row: AnswerRowData): void {
  renderWithApp(
    <RowActionsContext.Provider value={{ pick: () => {}, resend: () => {}, send: () => {} }}>
      <AnswerRow row={row} />
    </RowActionsContext.Provider>,
  )
}

afterEach(cleanup)

describe('the served model under an answer', () => {
  it('is shown when the server answered with another model than the one asked for', () => {
    show(answerRow('gpt-4o-2024-08-06'))
    const note = screen.getByText('answered by gpt-4o-2024-08-06')
    expect(note.getAttribute('title')).toBe(
      'The server answered with gpt-4o-2024-08-06, not gpt-4o as asked',
    )
  })

  it('is not shown when the server answered with the model asked for', () => {
    show(answerRow(null))
    expect(screen.queryByText(/answered by/)).toBeNull()
  })
})
