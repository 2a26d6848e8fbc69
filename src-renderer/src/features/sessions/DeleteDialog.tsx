/** "Delete this chat?": names the chat; Delete is deliberate, Cancel or Esc keeps it. */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX } from 'react'

export function DeleteDialog(props: {
  title: string | null
  onCancel(): void
  onConfirm(): void
}): JSX.Element {
  return (
    <Dialog.Root open={props.title !== null} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog confirm-delete">
          <Dialog.Title>Delete this chat?</Dialog.Title>
          <Dialog.Description>
            “{props.title || 'Untitled chat'}” and its messages will be deleted. You can undo this
            for a few seconds.
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
