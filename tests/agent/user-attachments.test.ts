/** How a user message's attachments reach the model: text under a naming line, images as parts. */
import { describe, expect, it } from 'vitest'
import type { StoredMessage } from '../../src-preload/contract/dto'
import { userWireContent } from '../../src-main/core/agent/user-attachments'

const msg = (parts: StoredMessage['parts']): StoredMessage =>
  ({ role: 'user', content: 'Look at this.', parts }) as StoredMessage

describe('attachments in the request', () => {
  it('a message without attachments is its text', () => {
    expect(userWireContent(msg(null), true)).toBe('Look at this.')
  })

  it('a text resource follows the message under a line naming it', () => {
    const m = msg([
      { type: 'resource_link', uri: 'demo://a', name: 'a' },
      { type: 'resource', uri: 'demo://a', mimeType: 'text/plain', text: '<b>not html</b>' },
    ])
    expect(userWireContent(m, false)).toBe(
      'Look at this.\n\n[Attached resource demo://a (text/plain)]\n<b>not html</b>',
    )
  })

  it('an image is an image part for a model that takes images, else a note', () => {
    const m = msg([
      { type: 'resource_link', uri: 'demo://img', name: 'img' },
      { type: 'image', mimeType: 'image/png', data: 'AAAA' },
    ])
    expect(userWireContent(m, true)).toEqual([
      { type: 'text', text: 'Look at this.\n\n[Attached image demo://img]' },
      { type: 'image_url', image_url: { url: 'data:image/png;base64,AAAA' } },
    ])
    expect(userWireContent(m, false)).toBe(
      'Look at this.\n\n[An image (demo://img) was attached, but this model does not take images]',
    )
  })
})
