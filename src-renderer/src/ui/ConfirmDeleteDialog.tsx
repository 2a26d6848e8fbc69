/** "Delete this …?": says what goes; Delete is deliberate, Cancel or Esc keeps it. */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, ReactNode } from 'react'

export function ConfirmDeleteDialog(props: {
  open: boolean
  title: string
  children: ReactNode
  onCancel(): void
  onConfirm(): void
}): JSX.Element {
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog confirm-delete">
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description>{props.children}</Dialog.Description>
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
