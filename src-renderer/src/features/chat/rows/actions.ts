import { createContext, useContext } from 'react'

/** What rows can ask the conversation to do. */
export interface RowActions {
  /** opens the branch through another version (the message `seq`) */
  pick(seq: number): void
  /** a new version of the user message `messageId` and its answer (edit: new text; retry: the same) */
  resend(messageId: string, text: string): void
  /** another answer to the user message `messageId` (a new branch after it) */
  regenerate?(messageId: string): void
  /** "Branch into new chat": a new chat holding the conversation up to `messageId` */
  fork?(messageId: string): void
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
