import { createContext, useContext } from 'react'

/** What rows can ask the conversation to do. */
export interface RowActions {
  /** shows another version of an exchange */
  pick(slot: string, index: number): void
  /** a new turn that replaces `messageId` (regenerate and retry: the same text; edit: new text) */
  resend(messageId: string, text: string): void
}

export const RowActionsContext = createContext<RowActions>({ pick: () => {}, resend: () => {} })

export const useRowActions = (): RowActions => useContext(RowActionsContext)
