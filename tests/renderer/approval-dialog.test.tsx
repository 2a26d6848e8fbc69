// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { PermissionRequestEvent } from '../../src-preload/contract/events'
import { ApprovalDialog } from '../../src-renderer/src/features/approvals/ApprovalDialog'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

function request(p: Partial<PermissionRequestEvent> = {}): PermissionRequestEvent {
  return {
    type: 'permission_request',
    sessionId: 's1',
    turnId: 't1',
    at: 0,
    requestId: 'r1',
    toolCallId: 'c1',
    name: 'files__delete',
    server: 'files',
    tool: 'delete',
    description: 'Deletes a file.',
    arguments: { path: 'a'.repeat(5000) + '/end.txt' },
    annotations: { destructiveHint: true, readOnlyHint: true },
    trusted: false,
    ...p,
  }
}

function setup(pending: PermissionRequestEvent[]) {
  const app = renderWithApp(<ApprovalDialog />, {
    'chat.status': () => ({ turns: [], pendingApprovals: pending }),
    'approvals.respond': () => ({ accepted: true }),
    'sessions.get': ({ id }) => ({
      session: { id, title: `Chat ${id}` } as never,
      messages: [],
      hasMore: false,
    }),
  })
  const responses = () =>
    app.platform.requests.filter((r) => r.route === 'approvals.respond').map((r) => r.input)
  return { ...app, responses }
}

describe('the approval dialog', () => {
  it('shows the whole call, the server’s claims as claims, and starts with focus on itself', async () => {
    setup([request()])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    expect(within(dialog).getByLabelText('Arguments').textContent).toContain('/end.txt')
    expect(within(dialog).getByText('destructive (the server says)')).toBeTruthy()
    expect(within(dialog).getByText('read-only (the server says)')).toBeTruthy()
    expect(within(dialog).getByText('untrusted server')).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(dialog))
  })

  it('a key press that began outside the dialog (a held Enter) decides nothing', async () => {
    const { responses } = setup([request()])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const allow = within(dialog).getByRole('button', { name: 'Allow once' })
    // a keyboard "click" (detail 0) with no key pressed down inside the dialog first
    fireEvent.click(allow, { detail: 0 })
    // a repeated Enter from a key held since before the dialog opened
    fireEvent.keyDown(dialog, { key: 'Enter', repeat: true })
    fireEvent.click(allow, { detail: 0 })
    expect(responses()).toEqual([])
    // a deliberate key press inside the dialog counts
    fireEvent.keyDown(allow, { key: 'Enter' })
    fireEvent.click(allow, { detail: 0 })
    await waitFor(() => expect(responses()).toEqual([{ requestId: 'r1', decision: 'allow_once' }]))
  })

  it('Esc denies, with the reason typed', async () => {
    const { responses } = setup([request()])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const user = userEvent.setup()
    await user.type(within(dialog).getByLabelText(/Reason if you deny/), 'not that file')
    await user.keyboard('{Escape}')
    await waitFor(() =>
      expect(responses()).toEqual([{ requestId: 'r1', decision: 'deny', reason: 'not that file' }]),
    )
  })

  it('several pending: "1 of N", and which chat each belongs to; answered one by one', async () => {
    const { responses } = setup([
      request(),
      request({ requestId: 'r2', sessionId: 's2', tool: 'move' }),
    ])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    expect(within(dialog).getByText('1 of 2')).toBeTruthy()
    await within(dialog).findByText('In another chat: Chat s1')
    await act(async () => {
      await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Allow once' }))
    })
    const next = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    await within(next).findByText('move')
    expect(within(next).queryByText('1 of 2')).toBeNull()
    expect(responses()).toEqual([{ requestId: 'r1', decision: 'allow_once' }])
  })
})
