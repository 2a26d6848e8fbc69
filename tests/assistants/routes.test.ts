/**
 * The assistants routes through the contract (the desktop app's IPC): create, edit,
 * duplicate, delete, export and import, and what each refuses.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { AssistantDraft } from '../../src-preload/contract/assistants'
import { unwrap, type TestBridge } from '../support/bridges'
import { openTestHost } from '../support/host'

let b: TestBridge
let stop: () => Promise<void>
const KEY = 'sk-secret-assistant-key-1234'

beforeAll(async () => {
  ;({ b, stop } = await openTestHost({ prefix: 'cairn-assistant-routes-' }))
  unwrap(
    await b.request('settings.update', {
      providers: [{ id: 'p', name: 'P', baseURL: 'http://127.0.0.1:9/v1' }],
      apiKeys: { p: KEY },
    }),
  )
})
afterAll(() => stop())

const full: AssistantDraft = {
  name: 'Reviewer',
  description: 'Reads code and says what is wrong.',
  systemPrompt: 'You review code.',
  providerId: 'p',
  model: 'big',
  utilityModel: 'small',
  temperature: 0.4,
  tools: {
    builtin: { mode: 'some', names: ['read_file', 'search_files'] },
    mcp: { servers: { git: { mode: 'all', names: [] } }, others: 'none' },
  },
  permissionPolicy: 'read-only',
  limits: { maxIterations: 12, deadlineMs: 120_000 },
  workspace: '/tmp/reviews',
}

describe('assistants routes', () => {
  it('lists the default and built-in assistants, the default first', async () => {
    const list = unwrap(await b.request('assistants.list', {}))
    expect(list.defaultId).toBe('default')
    expect(list.assistants.map((a) => a.name)).toEqual(['Default', 'Chat', 'Files', 'Researcher'])
  })

  it('creates, reads, edits and duplicates; names are unique', async () => {
    const a = unwrap(await b.request('assistants.create', { assistant: full }))
    expect(a).toMatchObject({ ...full, origin: 'user' })
    expect(unwrap(await b.request('assistants.get', { id: a.id }))).toEqual(a)
    const taken = await b.request('assistants.create', {
      assistant: { ...full, name: 'REVIEWER ' },
    })
    expect(taken).toMatchObject({ ok: false, error: { code: 'conflict' } })

    const { temperature: _t, ...withoutTemperature } = full
    const edited = unwrap(
      await b.request('assistants.update', {
        id: a.id,
        assistant: { ...withoutTemperature, systemPrompt: 'You review code kindly.' },
      }),
    )
    expect(edited.systemPrompt).toBe('You review code kindly.')
    expect(edited).not.toHaveProperty('temperature')

    const copy = unwrap(await b.request('assistants.duplicate', { id: a.id }))
    expect(copy).toMatchObject({ name: 'Reviewer (copy)', systemPrompt: 'You review code kindly.' })
    expect(copy.id).not.toBe(a.id)
    const named = unwrap(await b.request('assistants.duplicate', { id: a.id, name: 'Second look' }))
    expect(named.name).toBe('Second look')
  })

  it('refuses bad drafts with the field named', async () => {
    const r = await b.request('assistants.create', {
      assistant: { ...full, name: 'Hot', temperature: 7 },
    })
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    expect(!r.ok && r.error.message).toMatch(/assistant\.temperature/)
  })

  it('exports without id, dates or secrets, and imports the same assistant back', async () => {
    const a = unwrap(
      await b.request('assistants.create', { assistant: { ...full, name: 'Exported' } }),
    )
    const file = unwrap(await b.request('assistants.export', { id: a.id }))
    expect(file).toMatchObject({
      filename: 'exported.assistant.json',
      mimeType: 'application/json',
    })
    expect(file.content).not.toContain(KEY)
    expect(file.content).not.toContain(a.id)
    expect(file.content).not.toContain('createdAt')
    expect(JSON.parse(file.content)).toEqual({
      cairnAssistant: 1,
      assistant: { ...full, name: 'Exported' },
    })

    // its read-only policy asks less than the settings' (ask): applied because the user agreed
    const back = unwrap(
      await b.request('assistants.import', { text: file.content, allowPolicy: true }),
    )
    expect(back.renamedFrom).toBe('Exported')
    expect(back.assistant).toMatchObject({ ...full, name: 'Exported (2)', origin: 'user' })

    unwrap(await b.request('assistants.delete', { id: a.id }))
    const again = unwrap(
      await b.request('assistants.import', { text: file.content, allowPolicy: true }),
    )
    expect(again).toMatchObject({ renamedFrom: null, assistant: { name: 'Exported' } })
  })

  it('drops unknown keys of an imported file (an API key among them)', async () => {
    const text = JSON.stringify({
      cairnAssistant: 1,
      assistant: { ...full, name: 'With extras', apiKey: 'sk-should-vanish' },
    })
    const { assistant } = unwrap(await b.request('assistants.import', { text }))
    expect(assistant).not.toHaveProperty('apiKey')
    const exported = unwrap(await b.request('assistants.export', { id: assistant.id }))
    expect(exported.content).not.toContain('sk-should-vanish')
  })

  it('says what is wrong with a file that is not an assistant', async () => {
    const bad = async (text: string) => {
      const r = await b.request('assistants.import', { text })
      expect(r.ok).toBe(false)
      return !r.ok ? r.error : null
    }
    expect(await bad('not json')).toMatchObject({
      code: 'bad_request',
      message: expect.stringMatching(/not JSON/),
    })
    expect(await bad('{"name": "x"}')).toMatchObject({
      message: expect.stringMatching(/not an exported assistant/),
    })
    const wrong = JSON.stringify({
      cairnAssistant: 1,
      assistant: { ...full, tools: { builtin: { mode: 'many', names: [] } } },
    })
    expect((await bad(wrong))?.message).toMatch(/assistant\.tools\.builtin\.mode/)
  })

  it('deletes a user or built-in assistant, never the default one', async () => {
    const chat = unwrap(await b.request('assistants.list', {})).assistants.find(
      (a) => a.name === 'Chat',
    )!
    expect(unwrap(await b.request('assistants.delete', { id: chat.id }))).toEqual({ deleted: true })
    expect(unwrap(await b.request('assistants.delete', { id: chat.id }))).toEqual({
      deleted: false,
    })
    const r = await b.request('assistants.delete', { id: 'default' })
    expect(r).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/cannot be deleted/) },
    })
    expect(await b.request('assistants.get', { id: chat.id })).toMatchObject({
      ok: false,
      error: { code: 'not_found' },
    })
  })

  it('sessions.setAssistant refuses an unknown session or assistant', async () => {
    expect(
      await b.request('sessions.setAssistant', { id: 'nope', assistantId: 'default' }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } })
  })
})
