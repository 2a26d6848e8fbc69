/**
 * Generated titles: off by default (a chat is named by its first message); on, the utility
 * model names a new chat from its first exchange, after the turn, and the list is told.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { cleanTitle } from '../../src-main/core/agent/session-title'
import { unwrap, waitForEvent, type TestBridge } from '../support/bridges'
import { openChatHost } from '../support/host'
import {
  completionReply,
  textReply,
  type Reply,
  type ScriptedServer,
} from '../support/openai-server'

/** a non-streamed completion, as the title call expects */
const completion = (text: string): Reply => completionReply(text, { id: 't', model: 'small' })

describe('titles', () => {
  let server: ScriptedServer
  let b: TestBridge
  let stop: () => Promise<void>

  beforeEach(async () => {
    ;({ server, b, stop } = await openChatHost({
      prefix: 'cairn-titles-',
      models: ['big', 'small'],
      provider: { name: 'P', defaultModel: 'big', utilityModel: 'small' },
    }))
  })
  afterEach(() => stop())

  const ask = async (text: string): Promise<string> => {
    const { sessionId, turnId } = unwrap(await b.request('chat.send', { text }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    return sessionId
  }
  const titleOf = async (id: string): Promise<string> =>
    unwrap(await b.request('sessions.get', { id })).session.title

  it('off by default: the first message is the title and no model is asked for one', async () => {
    expect(unwrap(await b.request('settings.get', {})).generateTitles).toBe(false)
    server.enqueue(textReply('Granite is an igneous rock.'))
    const id = await ask('tell me about granite please')
    expect(await titleOf(id)).toBe('tell me about granite please')
    expect(server.requests).toHaveLength(1)
  })

  it('on: the utility model names the chat from its first exchange; a later turn does not rename it', async () => {
    unwrap(await b.request('settings.update', { generateTitles: true }))
    server.enqueue(
      textReply('Granite is an igneous rock.'),
      completion('"**Granite: an igneous rock.**"\nmore'),
    )
    const id = await ask('tell me about granite please')
    await waitForEvent(b, 'sessions.changed', () => server.requests.length === 2)
    await expect.poll(() => titleOf(id)).toBe('Granite: an igneous rock')
    const call = server.requests[1]!.body as {
      model: string
      stream?: boolean
      messages: { content: string }[]
    }
    expect(call.model).toBe('small')
    expect(call.stream).toBe(false)
    expect(JSON.stringify(call.messages)).toContain('Granite is an igneous rock.')

    server.enqueue(textReply('Basalt too.'))
    const { turnId } = unwrap(await b.request('chat.send', { sessionId: id, text: 'and basalt?' }))
    await waitForEvent(b, 'agent', (e) => e.turnId === turnId && e.type === 'turn_end')
    expect(server.requests).toHaveLength(3)
    expect(await titleOf(id)).toBe('Granite: an igneous rock')
  })

  it('a failed title call leaves the first message as the title', async () => {
    unwrap(await b.request('settings.update', { generateTitles: true }))
    server.enqueue(textReply('Fine.'), {
      type: 'http',
      status: 500,
      body: { error: { message: 'down' } },
    })
    const id = await ask('how are cairns built')
    await expect.poll(() => server.requests.length).toBeGreaterThanOrEqual(2)
    expect(await titleOf(id)).toBe('how are cairns built')
  })
})

describe('a title from the model is cleaned', () => {
  it('one line, no markup, quotes or control characters, at most 80 characters', () => {
    expect(cleanTitle('\n  Title: "Stone piles"\nExplanation…')).toBe('Stone piles')
    expect(cleanTitle('# **Bold** `code`.')).toBe('Bold code')
    expect(cleanTitle('a\u001b[2Jb\u0007c')).toBe('a[2Jbc')
    expect(cleanTitle('   \n  ')).toBeNull()
    expect([...cleanTitle('x'.repeat(200))!]).toHaveLength(80)
  })
})
