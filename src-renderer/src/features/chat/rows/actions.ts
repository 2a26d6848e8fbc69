import { createContext, useContext } from 'react'

/** What rows can ask the conversation to do. */
export interface RowActions {
  /** shows another version of an exchange */
  pick(slot: string, index: number): void
  /** a new turn that replaces `messageId` (regenerate and retry: the same text; edit: new text) */
  resend(messageId: string, text: string): void
  /** a new turn with this text (Continue after an answer cut at the output limit) */
  send(text: string): void
  /** shows or hides the messages a summary stands in for */
  toggleSummary?(summaryId: string): void
  /** removes a summary: the model gets the original messages again */
  undoCompaction?(summaryId: string): void
  /** "Keep in context": never summarized or left out */
  pin?(messageId: string, pinned: boolean): void
}

export const RowActionsContext = createContext<RowActions>({
  pick: () => {},
  resend: () => {},
  send: () => {},
  toggleSummary: () => {},
  undoCompaction: () => {},
  pin: () => {},
})

export const useRowActions = (): RowActions => useContext(RowActionsContext)
