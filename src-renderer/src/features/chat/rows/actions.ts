import { createContext, useContext } from 'react'

/** What rows can ask the conversation to do. */
export interface RowActions {
  /** shows another version of an exchange */
  pick(slot: string, index: number): void
  /** a new turn that replaces `messageId` (regenerate and retry: the same text; edit: new text) */
  resend(messageId: string, text: string): void
  /** a new turn with this text (Continue after an answer cut at the output limit) */
  send(text: string): void
}

export const RowActionsContext = createContext<RowActions>({
  pick: () => {},
  resend: () => {},
  send: () => {},
})

export const useRowActions = (): RowActions => useContext(RowActionsContext)
