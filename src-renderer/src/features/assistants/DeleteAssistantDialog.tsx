/** "Delete this assistant?": names it, says chats keep their copy; Cancel or Esc keeps it. */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX } from 'react'

export function DeleteAssistantDialog(props: {
  /** the assistant asked about; null: the dialog is closed */
  name: string | null
  onCancel(): void
  onConfirm(): void
}): JSX.Element {
  return (
    <Dialog.Root open={props.name !== null} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog confirm-delete">
          <Dialog.Title>Delete this assistant?</Dialog.Title>
          <Dialog.Description>
            “{props.name}” will be deleted. Chats that use it keep their own copy of it and go on
            working as before; new chats can no longer pick it.
          </Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">Cancel</button>
            </Dialog.Close>
            <button type="button" className="danger" onClick={props.onConfirm}>
              Delete
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
