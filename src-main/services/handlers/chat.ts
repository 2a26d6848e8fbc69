import { checkMessageParts } from '../../core/attachments/limits'
import { ExpectedError } from '../../core/errors'
import type { RouteInput } from '../../../src-preload/contract/routes'
import type { Handlers } from '../../ipc/router'
import type { BranchChoice } from '../turns/branch-start'
import { promptOrigin, promptText } from '../tools/prompt-message'
import type { HandlerContext } from './handler-context'

type ChatRoutes = 'chat.send' | 'chat.regenerate' | 'chat.stop' | 'chat.attach' | 'chat.status'

/** where a sent message goes: a new version of one (Edit, Retry), after one, or at the end */
function branchOfSend(input: RouteInput<'chat.send'>): { branch?: BranchChoice } {
  if (input.replaces) return { branch: { replaces: input.replaces } }
  if (input.after) return { branch: { after: input.after } }
  return {}
}

export function chatHandlers(c: HandlerContext): Pick<Handlers, ChatRoutes> {
  return {
    'chat.send': async (input) => {
      // attached resources are read now: one that cannot be read keeps the message unsent
      const parts = []
      let text = input.text
      if (input.prompt) {
        // a server's prompt: its messages, fetched here, are sent as the user's, marked as such
        const { server, name } = input.prompt
        const args = input.prompt.arguments ?? {}
        text = promptText(await c.tools.resourcesAndPrompts.prompt(server, name, args))
        if (!text) throw new ExpectedError('unavailable', `The prompt /${server}:${name} is empty.`)
        parts.push(promptOrigin(server, name))
      }
      for (const ref of input.attachments ?? [])
        parts.push(...(await c.tools.resourcesAndPrompts.read(ref)))
      // the files attached in the window, as the engine read them
      parts.push(...c.attachmentInbox.parts(input.files ?? []))
      if (text.trim() === '' && parts.length === 0)
        throw new ExpectedError(
          'bad_request',
          'The message is empty: type something or attach a file.',
        )
      checkMessageParts(parts, c.app.settings.get().attachments)
      return c.turns.send({
        text,
        ...(parts.length > 0 ? { parts } : {}),
        ...(input.sessionId ? { sessionId: input.sessionId } : {}),
        ...(input.model ? { model: input.model } : {}),
        ...(input.workspace ? { workspace: input.workspace } : {}),
        ...branchOfSend(input),
        ...(input.assistantId ? { assistantId: input.assistantId } : {}),
        ...(input.projectId ? { projectId: input.projectId } : {}),
      })
    },
    'chat.regenerate': async ({ sessionId, messageId, model }) =>
      c.turns.send({
        sessionId,
        text: '',
        branch: { answerAgain: messageId },
        ...(model ? { model } : {}),
      }),
    'chat.stop': async ({ turnId }) => ({ stopped: c.turns.stop(turnId) }),
    'chat.attach': async ({ sessionId }) => c.turns.attach(sessionId),
    'chat.status': async () => c.turns.status(),
  }
}
