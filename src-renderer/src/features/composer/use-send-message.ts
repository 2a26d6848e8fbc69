/**
 * Sending from the composer: the text with the attached resources, or a server's prompt
 * (`/server:prompt`), whose arguments are asked in a form first when it takes any. The
 * resources and files attached go with what is sent, and are cleared once it is.
 */
import { useState } from 'react'
import type { McpPrompt } from '../../../../src-preload/contract/resources-and-prompts'
import { useLive } from '../../state/context'
import type { Feedback } from './ComposerFeedback'
import { findPrompt } from './prompt-commands'
import type { useMcpPrompts } from './use-resources-and-prompts'
import type { ResourcePicker } from './use-resource-picker'
import type { FileAttachments } from './use-file-attachments'

export interface MessageSending {
  /** the prompt whose arguments are being asked, if any */
  promptForm: McpPrompt | null
  closePromptForm(): void
  sendText(text: string): Promise<void>
  sendPrompt(p: McpPrompt, args: Record<string, string>): Promise<void>
  /** `/server:prompt`: says when no server offers it; else asks its arguments, or sends it */
  runPrompt(
    wanted: { server: string; name: string },
    prompts: ReturnType<typeof useMcpPrompts>,
    say: (feedback: Feedback) => void,
  ): Promise<void>
}

export function useSendMessage(
  picker: ResourcePicker,
  files: FileAttachments,
  focusBox: () => void,
): MessageSending {
  const send = useLive((s) => s.send)
  const [promptForm, setPromptForm] = useState<McpPrompt | null>(null)
  const attached = () => {
    const attachments = picker.attachments.map((a) => a.ref)
    const tokens = files.tokens()
    return {
      ...(attachments.length > 0 ? { attachments } : {}),
      ...(tokens.length > 0 ? { files: tokens } : {}),
    }
  }
  const sendPrompt = async (p: McpPrompt, args: Record<string, string>): Promise<void> => {
    setPromptForm(null)
    const ok = await send(`/${p.server}:${p.name}`, {
      prompt: { server: p.server, name: p.name, arguments: args },
      ...attached(),
    })
    if (ok) picker.clear()
    focusBox()
  }
  return {
    promptForm,
    closePromptForm: () => {
      setPromptForm(null)
      focusBox()
    },
    sendText: async (text) => {
      // the files sent leave the chat's box in the live store, with the text
      if (await send(text, attached())) picker.clear()
    },
    sendPrompt,
    runPrompt: async (wanted, prompts, say) => {
      const list = prompts.data ?? (await prompts.refetch()).data
      const p = list ? findPrompt(list.prompts, wanted) : null
      if (!p) {
        return say({
          kind: 'error',
          text: `No running server offers the prompt /${wanted.server}:${wanted.name}. Tab completes the prompts there are.`,
        })
      }
      say(null)
      if (p.arguments.length > 0) return setPromptForm(p)
      return sendPrompt(p, {})
    },
  }
}
