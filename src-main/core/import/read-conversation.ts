/**
 * One conversation of an export, whichever app wrote it: ChatGPT's have a `mapping`,
 * Claude's `chat_messages`, Cairn's own export says `format: 'cairn-session'`.
 */
import { isCairnExport, readCairnExport } from './cairn'
import { readChatGptConversation } from './chatgpt'
import { readClaudeConversation } from './claude'
import { isRecord, MalformedConversation, type ImportedConversation } from './conversation'

export function readConversation(v: unknown): ImportedConversation {
  if (!isRecord(v)) throw new MalformedConversation('it is not an object')
  if (isCairnExport(v)) return readCairnExport(v)
  if ('mapping' in v) return readChatGptConversation(v)
  if ('chat_messages' in v) return readClaudeConversation(v)
  throw new MalformedConversation('it is neither a ChatGPT nor a Claude conversation')
}
