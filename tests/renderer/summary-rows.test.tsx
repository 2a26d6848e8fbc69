/** A summary shows where the messages it stands in for were: collapsed, expanded, undone; pins. */
// @vitest-environment jsdom
import { cleanup, fireEvent, screen } from '@testing-library/react'
import { afterEach, describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { RowActionsContext } from '../../src-renderer/src/features/chat/rows/actions'
import { SummaryRow } from '../../src-renderer/src/features/chat/rows/NoticeRows'
import { UserRow } from '../../src-renderer/src/features/chat/rows/UserRow'
import { storedRows, type Row } from '../../src-renderer/src/state/conversation'
import { messageBuilder } from '../support/stored-messages'
import { renderWithApp } from './support/render-app'

function history(): StoredMessage[] {
  const m = messageBuilder()
  const out: StoredMessage[] = []
  for (let i = 0; i < 6; i++) {
    out.push(m({ role: 'user', content: `q${i}`, turnId: `t${i}` }))
    out.push(m({ role: 'assistant', content: `a${i}`, turnId: `t${i}` }))
  }
  out[4] = { ...out[4]!, pinned: true } // q2
  out.push(
    m({ role: 'user', kind: 'summary', content: 'They talked.', covers: { from: 2, to: 8 } }),
  )
  return out
}

const texts = (rows: Row[]): string[] =>
  rows.map((r) =>
    r.kind === 'user'
      ? `user:${r.text}`
      : r.kind === 'answer'
        ? `answer:${r.answer.text}`
        : r.kind === 'summary'
          ? `summary:${r.text}`
          : r.kind,
  )

const rowsOf = (messages: StoredMessage[], expanded: string[] = []): Row[] =>
  storedRows({
    messages,
    liveTurnId: null,
    hiding: null,
    busy: false,
    expandedSummaries: new Set(expanded),
  })

afterEach(cleanup)

describe('a summary in the conversation', () => {
  it('stands where its first covered message was; collapsed, only pinned messages show', () => {
    const messages = history()
    const frozen = JSON.stringify(messages)
    expect(texts(rowsOf(messages))).toEqual([
      'user:q0',
      'summary:They talked.',
      'user:q2',
      'user:q4',
      'answer:a4',
      'user:q5',
      'answer:a5',
    ])
    const summary = rowsOf(messages).find((r) => r.kind === 'summary')
    expect(summary).toMatchObject({ summaryId: 'm13', covered: 7, expanded: false })
    // an answer's "Keep in context" pins the exchange's last answer message
    const last = rowsOf(messages).at(-1)
    expect(last?.kind === 'answer' ? last.footer?.keep : null).toEqual({
      messageId: 'm12',
      pinned: false,
    })
    expect(JSON.stringify(messages)).toBe(frozen)
  })

  it('expanded, shows every original message below it', () => {
    const rows = rowsOf(history(), ['m13'])
    expect(texts(rows)).toEqual([
      'user:q0',
      'summary:They talked.',
      'answer:a0',
      'user:q1',
      'answer:a1',
      'user:q2',
      'answer:a2',
      'user:q3',
      'answer:a3',
      'user:q4',
      'answer:a4',
      'user:q5',
      'answer:a5',
    ])
  })

  it('has a toggle and Undo compaction, which ask the conversation to act', () => {
    const calls: string[] = []
    const summary = rowsOf(history(), ['m13']).find(
      (r): r is Extract<Row, { kind: 'summary' }> => r.kind === 'summary',
    )!
    renderWithApp(
      <RowActionsContext.Provider
        value={{
          pick: () => {},
          resend: () => {},
          send: () => {},
          toggleSummary: (id) => calls.push(`toggle ${id}`),
          undoCompaction: (id) => calls.push(`undo ${id}`),
        }}
      >
        <SummaryRow row={summary} />
      </RowActionsContext.Provider>,
    )
    const toggle = screen.getByRole('button', { name: /Earlier conversation summarized/ })
    expect(toggle.getAttribute('aria-expanded')).toBe('true')
    expect(screen.getByText('They talked.')).toBeTruthy()
    fireEvent.click(toggle)
    fireEvent.click(screen.getByRole('button', { name: 'Undo compaction' }))
    expect(calls).toEqual(['toggle m13', 'undo m13'])
  })

  it('a user message can be kept in context, and says when it is', () => {
    const pins: string[] = []
    const row = rowsOf(history()).find(
      (r): r is Extract<Row, { kind: 'user' }> => r.kind === 'user' && r.text === 'q2',
    )!
    renderWithApp(
      <RowActionsContext.Provider
        value={{
          pick: () => {},
          resend: () => {},
          send: () => {},
          pin: (id, pinned) => pins.push(`${id} ${pinned}`),
        }}
      >
        <UserRow row={row} />
      </RowActionsContext.Provider>,
    )
    const button = screen.getByRole('button', { name: 'Kept in context' })
    expect(button.getAttribute('aria-pressed')).toBe('true')
    fireEvent.click(button)
    expect(pins).toEqual(['m5 false'])
  })
})
