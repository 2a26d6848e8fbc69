// @vitest-environment jsdom
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ApprovalRequestEvent } from '../../src-preload/contract/events'
import { ApprovalDialog } from '../../src-renderer/src/features/approvals/ApprovalDialog'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

function request(p: Partial<ApprovalRequestEvent> = {}): ApprovalRequestEvent {
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

function setup(pending: ApprovalRequestEvent[]) {
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

  it('a held Enter from the composer decides nothing: not its repeats, not after Tab reaches a button', async () => {
    const { responses } = setup([request()])
    const composer = document.body.appendChild(document.createElement('textarea'))
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const allow = within(dialog).getByRole('button', { name: 'Allow once' })
    // Enter went down in the message box just before the dialog opened, and is still held
    fireEvent.keyDown(composer, { key: 'Enter', code: 'Enter' })
    // a deliberate key inside the dialog (Tab to the button) does not make the held Enter count
    fireEvent.keyDown(dialog, { key: 'Tab', code: 'Tab' })
    fireEvent.keyUp(allow, { key: 'Tab', code: 'Tab' })
    fireEvent.keyDown(allow, { key: 'Enter', code: 'Enter', repeat: true })
    fireEvent.click(allow, { detail: 0 })
    // its keyup landing on the button decides nothing either
    fireEvent.keyUp(allow, { key: 'Enter', code: 'Enter' })
    fireEvent.click(allow, { detail: 0 })
    // an auto-repeat whose first press was never seen (held since before the window had focus)
    fireEvent.keyDown(allow, { key: 'Enter', code: 'Enter', repeat: true })
    fireEvent.click(allow, { detail: 0 })
    fireEvent.keyUp(allow, { key: 'Enter', code: 'Enter' })
    expect(responses()).toEqual([])
    // a fresh press on the button (a later task than the keyup) counts
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0))
    })
    fireEvent.keyDown(allow, { key: 'Enter', code: 'Enter' })
    fireEvent.click(allow, { detail: 0 })
    await waitFor(() => expect(responses()).toEqual([{ requestId: 'r1', decision: 'allow_once' }]))
    composer.remove()
  })

  it('a Space typed in the message and released on a button decides nothing', async () => {
    const { responses } = setup([request()])
    const composer = document.body.appendChild(document.createElement('textarea'))
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const always = within(dialog).getByRole('button', { name: 'Always allow' })
    fireEvent.keyDown(composer, { key: ' ', code: 'Space' })
    fireEvent.keyUp(always, { key: ' ', code: 'Space' })
    fireEvent.click(always, { detail: 0 })
    await act(async () => {
      await new Promise((r) => setTimeout(r, 0))
    })
    expect(responses()).toEqual([])
    // Space pressed and released on the button is deliberate
    fireEvent.keyDown(always, { key: ' ', code: 'Space' })
    fireEvent.keyUp(always, { key: ' ', code: 'Space' })
    fireEvent.click(always, { detail: 0 })
    await waitFor(() =>
      expect(responses()).toEqual([{ requestId: 'r1', decision: 'allow_always' }]),
    )
    composer.remove()
  })

  it('Enter held after one decision does not decide the next request', async () => {
    const { responses } = setup([request(), request({ requestId: 'r2', tool: 'move' })])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const allow = within(dialog).getByRole('button', { name: 'Allow once' })
    fireEvent.keyDown(allow, { key: 'Enter', code: 'Enter' })
    fireEvent.click(allow, { detail: 0 })
    const next = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    await within(next).findByText('move')
    const allowNext = within(next).getByRole('button', { name: 'Allow once' })
    fireEvent.keyDown(allowNext, { key: 'Enter', code: 'Enter', repeat: true })
    fireEvent.click(allowNext, { detail: 0 })
    fireEvent.keyUp(allowNext, { key: 'Enter', code: 'Enter' })
    expect(responses()).toEqual([{ requestId: 'r1', decision: 'allow_once' }])
  })

  it('a pointer click, and a click with no key involved (assistive technology), decide', async () => {
    const { responses } = setup([request(), request({ requestId: 'r2', tool: 'move' })])
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }), { detail: 1 })
    const next = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    await within(next).findByText('move')
    fireEvent.click(within(next).getByRole('button', { name: 'Allow once' }), { detail: 0 })
    await waitFor(() =>
      expect(responses()).toEqual([
        { requestId: 'r1', decision: 'deny' },
        { requestId: 'r2', decision: 'allow_once' },
      ]),
    )
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

  it('the composer is inert while a dialog is open, and usable again once it is answered', async () => {
    const app = renderWithApp(
      <>
        <Composer />
        <ApprovalDialog />
      </>,
      {
        'chat.status': () => ({ turns: [], pendingApprovals: [request()] }),
        'approvals.respond': () => ({ accepted: true }),
        'sessions.get': ({ id }) => ({
          session: { id, title: `Chat ${id}` } as never,
          messages: [],
          hasMore: false,
        }),
      },
    )
    const dialog = await screen.findByRole('dialog', { name: 'Allow tool call?' })
    const form = document.querySelector('form.composer')!
    expect(form.hasAttribute('inert')).toBe(true)
    fireEvent.click(within(dialog).getByRole('button', { name: 'Deny' }), { detail: 1 })
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    await waitFor(() => expect(form.hasAttribute('inert')).toBe(false))
    expect(app.platform.requests.some((r) => r.route === 'approvals.respond')).toBe(true)
  })
})
