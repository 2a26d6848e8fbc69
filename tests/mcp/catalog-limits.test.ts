/**
 * What a server sends as a resource or a prompt is capped: long text is cut with the
 * truncation marker the model knows, huge images become a note, long names are shortened.
 */
import type { Client } from '@modelcontextprotocol/client'
import { describe, expect, it } from 'vitest'
import { getPromptMessages, MAX_PROMPT_CHARS } from '../../src-main/adapters/mcp/prompts'
import {
  MAX_RESOURCE_CHARS,
  MAX_RESOURCE_IMAGE_CHARS,
  readResourceParts,
} from '../../src-main/adapters/mcp/resources'

/** a client whose server answers with `contents` (the SDK's own parsing is not the subject here) */
const serving = (answer: Record<string, unknown>): Client =>
  ({
    readResource: async () => answer,
    getPrompt: async () => answer,
  }) as unknown as Client

describe('limits on what servers send', () => {
  it('a long resource text is cut with the truncation marker', async () => {
    const text = 'x'.repeat(MAX_RESOURCE_CHARS + 5000)
    const parts = await readResourceParts(
      serving({ contents: [{ uri: 'demo://big', mimeType: 'text/plain', text }] }),
      'srv',
      'demo://big',
      'big',
    )
    const body = parts[1]
    expect(body?.type).toBe('resource')
    const t = body?.type === 'resource' ? (body.text ?? '') : ''
    expect(t.startsWith('x'.repeat(MAX_RESOURCE_CHARS))).toBe(true)
    expect(t.slice(MAX_RESOURCE_CHARS)).toBe(
      `\n[OUTPUT TRUNCATED: showing ${MAX_RESOURCE_CHARS} of ${text.length} characters from srv: demo://big]`,
    )
  })

  it('an image too large becomes a note; a small one is an image part', async () => {
    const huge = 'A'.repeat(MAX_RESOURCE_IMAGE_CHARS + 4)
    const big = await readResourceParts(
      serving({ contents: [{ uri: 'demo://img', mimeType: 'image/png', blob: huge }] }),
      'srv',
      'demo://img',
      undefined,
    )
    expect(big[1]).toMatchObject({
      type: 'resource',
      text: expect.stringMatching(/^\[binary content \(image\/png/),
    })
    const small = await readResourceParts(
      serving({ contents: [{ uri: 'demo://img', mimeType: 'image/png', blob: 'AAAA' }] }),
      'srv',
      'demo://img',
      undefined,
    )
    expect(small[1]).toEqual({ type: 'image', mimeType: 'image/png', data: 'AAAA' })
  })

  it('a long name is shortened in the chip', async () => {
    const parts = await readResourceParts(
      serving({ contents: [{ uri: 'demo://a', text: 'hi' }] }),
      'srv',
      'demo://a',
      'n'.repeat(2000),
    )
    expect(parts[0]?.type === 'resource_link' && parts[0].name?.length).toBe(501)
  })

  it("a prompt's messages together are cut at the limit, embedded resources become text", async () => {
    const messages = await getPromptMessages(
      'srv',
      serving({
        messages: [
          { role: 'user', content: { type: 'text', text: 'y'.repeat(MAX_PROMPT_CHARS - 10) } },
          {
            role: 'assistant',
            content: { type: 'resource', resource: { uri: 'demo://r', text: 'z'.repeat(100) } },
          },
          { role: 'user', content: { type: 'image', data: 'AAAA', mimeType: 'image/png' } },
        ],
      }),
      'p',
      {},
    )
    expect(messages[0]?.text.length).toBe(MAX_PROMPT_CHARS - 10)
    expect(messages[1]?.role).toBe('assistant')
    expect(messages[1]?.text).toBe(
      '[Resource \n[OUTPUT TRUNCATED: showing 10 of 120 characters from srv: p]',
    )
    expect(messages[2]?.text).toMatch(/^\n?\[OUTPUT TRUNCATED: showing 0 of \d+ characters/)
  })
})
