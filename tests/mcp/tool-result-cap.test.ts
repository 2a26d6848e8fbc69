/**
 * Issue 25, case 4: the tool-result cap holds for what is stored in the session and pushed to
 * the window, not only for what the model is sent: an 8 MB embedded resource, 8 MB of
 * structured content with no content, and a handful of 10 MB images in one result are kept
 * within the turn's output limit (images within one image's worth), and what was cut is said
 * in words with its size. A real turn with the `hostile` MCP server, the real store.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { ContentPart } from '../../src-preload/contract/dto'
import { stdioLauncher } from '../../src-main/adapters/mcp/launch'
import { McpManager } from '../../src-main/adapters/mcp/manager'
import { CompositeToolHost } from '../../src-main/core/tools/composite-host'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { fixture, nodeServer } from '../support/mcp'
import { textReply, toolCallsReply } from '../support/openai-server'

let h: Harness
let m: McpManager
beforeEach(async () => {
  h = await createHarness()
  m = new McpManager({ launchStdio: stdioLauncher(), clientVersion: 'test' })
})
afterEach(async () => {
  await m.shutdown()
  await h.close()
})

const MB = 1024 * 1024
const LIMIT = 50_000

async function callBig(mode: string, amount: number) {
  m.apply({ hostile: nodeServer(fixture('hostile.mjs'), [mode, String(amount)]) })
  await m.settled(20_000)
  h.server.enqueue(
    toolCallsReply([{ id: 'c1', name: 'hostile__big', arguments: '{}' }]),
    textReply('done'),
  )
  const { outcome, events } = await h.turn('call it', {
    toolHost: new CompositeToolHost(() => m.sources()),
    limits: { maxToolOutputChars: LIMIT },
  })
  expect(outcome.reason).toBe('completed')
  const stored = h.store.listMessages(h.sessionId).find((x) => x.role === 'tool')!
  const shown = ofType(events, 'tool_result')[0]!
  return { stored, shown }
}

const textOfParts = (parts: ContentPart[] | null | undefined): string =>
  (parts ?? [])
    .map((p) => (p.type === 'text' ? p.text : p.type === 'resource' ? (p.text ?? '') : ''))
    .join('\n')

describe('a tool result larger than the limit', () => {
  it('an 8 MB embedded resource is cut in the session and the window, saying its size', async () => {
    const { stored, shown } = await callBig('huge-resource', 8)
    expect(JSON.stringify(stored).length).toBeLessThan(3 * LIMIT)
    expect(JSON.stringify(shown).length).toBeLessThan(3 * LIMIT)
    expect(textOfParts(stored.parts)).toMatch(/showing \d+ of 8388608 characters/)
    expect(textOfParts(shown.parts)).toMatch(/showing \d+ of 8388608 characters/)
    expect(stored.content.length).toBeLessThan(LIMIT + 200)
  })

  it('8 MB of structured content with no content is cut the same way', async () => {
    const { stored, shown } = await callBig('huge-structured', 8)
    expect(JSON.stringify(stored).length).toBeLessThan(3 * LIMIT)
    expect(JSON.stringify(shown).length).toBeLessThan(3 * LIMIT)
    expect(stored.content).toMatch(/structured content of \d+ characters.*left out/)
  })

  it('a handful of 10 MB images keeps one image, and names what was left out', async () => {
    const { stored, shown } = await callBig('many-images', 5)
    const images = (stored.parts ?? []).filter((p) => p.type === 'image')
    expect(images).toHaveLength(1)
    expect(JSON.stringify(stored).length).toBeLessThan(11 * MB)
    expect(JSON.stringify(shown).length).toBeLessThan(11 * MB)
    expect(textOfParts(stored.parts)).toMatch(/4 images \(about 31 MB\) .*left out/)
  })
})
