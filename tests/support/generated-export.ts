/**
 * A ChatGPT-shaped export written to disk as a stream, of any size: `conversations`
 * conversations of `messages` messages each (a branch at the second message of every
 * tenth), each message `chars` characters long. For the streaming test and the import
 * benchmark: the file is never held in memory, here or by the import.
 */
import { createWriteStream } from 'node:fs'
import { once } from 'node:events'

export interface GeneratedExport {
  conversations: number
  messages: number
  chars: number
}

function conversation(i: number, g: GeneratedExport): string {
  const mapping: Record<string, unknown> = {}
  const filler = `word${i} `.repeat(Math.ceil(g.chars / (String(i).length + 5))).slice(0, g.chars)
  let parent: string | null = null
  for (let m = 0; m < g.messages; m++) {
    const id = `c${i}-m${m}`
    mapping[id] = {
      id,
      parent,
      children: [],
      message: {
        id,
        author: { role: m % 2 === 0 ? 'user' : 'assistant' },
        create_time: 1_700_000_000 + i * 100 + m,
        content: { content_type: 'text', parts: [`${m === 0 ? `Topic ${i}: ` : ''}${filler}`] },
        metadata: m % 2 === 1 ? { model_slug: 'gpt-4o' } : {},
        recipient: 'all',
      },
    }
    parent = id
  }
  let current = parent
  if (i % 10 === 0 && g.messages > 2) {
    // another answer to the first question: the open branch stays on the first one
    mapping[`c${i}-alt`] = {
      id: `c${i}-alt`,
      parent: `c${i}-m0`,
      children: [],
      message: {
        id: `c${i}-alt`,
        author: { role: 'assistant' },
        create_time: 1_700_000_000 + i * 100 + 99,
        content: { content_type: 'text', parts: ['Another answer.'] },
        metadata: {},
        recipient: 'all',
      },
    }
    current = parent
  }
  return JSON.stringify({
    title: `Generated ${i}`,
    create_time: 1_700_000_000 + i * 100,
    update_time: 1_700_000_000 + i * 100 + g.messages,
    mapping,
    current_node: current,
    conversation_id: `gen-${i}`,
    id: `gen-${i}`,
  })
}

/** writes the export to `file`; returns its size in bytes */
export async function writeGeneratedExport(file: string, g: GeneratedExport): Promise<number> {
  const out = createWriteStream(file)
  let bytes = 0
  const write = async (s: string): Promise<void> => {
    bytes += Buffer.byteLength(s)
    if (!out.write(s)) await once(out, 'drain')
  }
  await write('[\n')
  for (let i = 0; i < g.conversations; i++)
    await write(`${i > 0 ? ',\n' : ''}${conversation(i, g)}`)
  await write('\n]\n')
  out.end()
  await once(out, 'finish')
  return bytes
}
