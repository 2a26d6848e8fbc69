// @vitest-environment jsdom
import { cleanup, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import { ElicitationDialog } from '../../src-renderer/src/features/elicitation/ElicitationDialog'
import { renderWithApp } from './support/render-app'

afterEach(cleanup)

const schema = {
  type: 'object',
  properties: {
    name: { type: 'string', title: 'Your name', description: 'As on your passport' },
    email: { type: 'string', title: 'Email', format: 'email' },
    homepage: { type: 'string', title: 'Homepage', format: 'uri' },
    birthdate: { type: 'string', title: 'Birthdate', format: 'date' },
    nights: { type: 'integer', title: 'Nights', minimum: 1, maximum: 30, default: 3 },
    budget: { type: 'number', title: 'Budget', minimum: 0, default: 99.5 },
    agree: { type: 'boolean', title: 'Agree to the terms', default: true },
    friend: {
      type: 'string',
      title: 'Friend',
      enum: ['Monica', 'Joey'],
      default: 'Joey',
    },
    hero: {
      type: 'string',
      title: 'Hero',
      oneOf: [
        { const: 'hero-1', title: 'Superman' },
        { const: 'hero-2', title: 'Wonder Woman' },
      ],
    },
    pet: {
      type: 'string',
      title: 'Pet',
      enum: ['pet-1', 'pet-2'],
      enumNames: ['Cats', 'Dogs'],
      default: 'pet-2',
    },
    fish: {
      type: 'array',
      title: 'Fish',
      items: {
        anyOf: [
          { const: 'fish-1', title: 'Tuna' },
          { const: 'fish-2', title: 'Salmon' },
        ],
      },
      default: ['fish-1'],
    },
  },
  required: ['name', 'hero'],
}

function question(p: Partial<ElicitationRequestEvent> = {}): ElicitationRequestEvent {
  return {
    type: 'elicitation_request',
    sessionId: 's1',
    turnId: 't1',
    at: 0,
    requestId: 'q1',
    toolCallId: 'c1',
    server: 'hotel',
    mode: 'form',
    message: 'Please provide <b>inputs</b>',
    requestedSchema: schema,
    ...p,
  }
}

function setup(
  pending: ElicitationRequestEvent[],
  answer: { accepted: boolean; error?: string } = { accepted: true },
) {
  const app = renderWithApp(<ElicitationDialog />, {
    'chat.status': () => ({ turns: [], pendingApprovals: [], pendingElicitations: pending }),
    'elicitations.respond': () => answer,
    'sessions.get': ({ id }) => ({
      session: { id, title: `Chat ${id}` } as never,
      messages: [],
      hasMore: false,
    }),
  })
  const responses = () =>
    app.platform.requests.filter((r) => r.route === 'elicitations.respond').map((r) => r.input)
  return { ...app, responses }
}

describe('the elicitation dialog', () => {
  it('names the server, shows its message as text, fills in the defaults, and starts with focus on itself', async () => {
    setup([question()])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    expect(within(dialog).getByText('Please provide <b>inputs</b>')).toBeTruthy()
    expect(dialog.querySelector('b')).toBeNull()
    expect((within(dialog).getByLabelText(/Nights/) as HTMLInputElement).value).toBe('3')
    expect((within(dialog).getByLabelText(/Budget/) as HTMLInputElement).value).toBe('99.5')
    expect((within(dialog).getByLabelText(/Agree to the terms/) as HTMLInputElement).checked).toBe(
      true,
    )
    expect((within(dialog).getByLabelText(/Friend/) as HTMLSelectElement).value).toBe('Joey')
    expect((within(dialog).getByLabelText(/Pet/) as HTMLSelectElement).value).toBe('pet-2')
    expect(within(dialog).getByRole('option', { name: 'Dogs' })).toBeTruthy()
    expect(within(dialog).getByRole('option', { name: 'Wonder Woman' })).toBeTruthy()
    expect(
      (within(dialog).getByRole('checkbox', { name: 'Tuna' }) as HTMLInputElement).checked,
    ).toBe(true)
    expect(
      (within(dialog).getByRole('checkbox', { name: 'Salmon' }) as HTMLInputElement).checked,
    ).toBe(false)
    expect((within(dialog).getByLabelText(/Email/) as HTMLInputElement).type).toBe('email')
    expect((within(dialog).getByLabelText(/Birthdate/) as HTMLInputElement).type).toBe('date')
    expect(within(dialog).getByText(/As on your passport/)).toBeTruthy()
    await waitFor(() => expect(document.activeElement).toBe(dialog))
  })

  it('shows what is wrong beside each field, sends nothing, and moves focus to the first', async () => {
    const { responses } = setup([question()])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    const user = userEvent.setup()
    await user.type(within(dialog).getByLabelText(/Email/), 'not-an-address')
    await user.type(within(dialog).getByLabelText(/Homepage/), 'example dot com')
    const nights = within(dialog).getByLabelText(/Nights/)
    await user.clear(nights)
    await user.type(nights, '45')
    await user.click(within(dialog).getByRole('button', { name: 'Submit' }))
    const name = within(dialog).getByLabelText(/Your name/)
    expect(name.getAttribute('aria-invalid')).toBe('true')
    // the name and the hero are required
    expect(within(dialog).getAllByText('Required.')).toHaveLength(2)
    expect(within(dialog).getByText('An email address, like name@example.com.')).toBeTruthy()
    expect(within(dialog).getByText('An address, like https://example.com.')).toBeTruthy()
    expect(within(dialog).getByText('At most 30.')).toBeTruthy()
    expect(document.activeElement).toBe(name)
    expect(responses()).toEqual([])
  })

  it('is answered by keyboard alone: typing, a choice from a list, Space on a checkbox, Enter submits', async () => {
    const { responses } = setup([question()])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    const user = userEvent.setup()
    await user.click(within(dialog).getByLabelText(/Your name/))
    await user.keyboard('Ada')
    await user.selectOptions(within(dialog).getByLabelText(/Hero/), 'hero-2')
    within(dialog).getByRole('checkbox', { name: 'Salmon' }).focus()
    await user.keyboard(' ')
    within(dialog)
      .getByLabelText(/Your name/)
      .focus()
    await user.keyboard('{Enter}')
    await waitFor(() => expect(responses()).toHaveLength(1))
    expect(responses()[0]).toEqual({
      requestId: 'q1',
      action: 'accept',
      content: {
        name: 'Ada',
        nights: 3,
        budget: 99.5,
        agree: true,
        friend: 'Joey',
        hero: 'hero-2',
        pet: 'pet-2',
        fish: ['fish-1', 'fish-2'],
      },
    })
  })

  it('Decline and Esc (cancel) answer without content', async () => {
    const { responses } = setup([question(), question({ requestId: 'q2' })])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    expect(within(dialog).getByText('1 of 2')).toBeTruthy()
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Decline' }))
    await waitFor(() => expect(responses()).toEqual([{ requestId: 'q1', action: 'decline' }]))
    await waitFor(() => expect(document.activeElement?.getAttribute('role')).toBe('dialog'))
    await userEvent.setup().keyboard('{Escape}')
    await waitFor(() => expect(responses()[1]).toEqual({ requestId: 'q2', action: 'cancel' }))
  })

  it('says why when the engine refuses the answer, and keeps the form', async () => {
    setup(
      [question({ requestedSchema: { type: 'object', properties: { a: { type: 'string' } } } })],
      {
        accepted: false,
        error: 'a: Required.',
      },
    )
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Submit' }))
    expect(
      await within(dialog).findByText(/The answer was not accepted: a: Required\./),
    ).toBeTruthy()
  })

  it('URL mode shows the address and opens it only when the user chooses to', async () => {
    const { platform, responses } = setup([
      question({ mode: 'url', url: 'https://example.org/consent?x=1', requestedSchema: undefined }),
    ])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    expect(within(dialog).getByLabelText('Address').textContent).toBe(
      'https://example.org/consent?x=1',
    )
    expect(platform.opened).toEqual([])
    await userEvent.setup().click(within(dialog).getByRole('button', { name: 'Open in browser' }))
    expect(platform.opened).toEqual(['https://example.org/consent?x=1'])
    await waitFor(() => expect(responses()).toEqual([{ requestId: 'q1', action: 'accept' }]))
  })

  it('a URL that is not a web address cannot be opened', async () => {
    setup([question({ mode: 'url', url: 'javascript:alert(1)', requestedSchema: undefined })])
    const dialog = await screen.findByRole('dialog', { name: 'hotel asks' })
    expect(within(dialog).queryByRole('button', { name: 'Open in browser' })).toBeNull()
    expect(within(dialog).getByText(/not a web address/)).toBeTruthy()
  })
})
