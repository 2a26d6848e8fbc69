/** "Delete this …?": says what goes; Delete is deliberate, Cancel or Esc keeps it. */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX, ReactNode } from 'react'
import { useT } from '../i18n'

export function ConfirmDeleteDialog(props: {
  open: boolean
  title: string
  children: ReactNode
  onCancel(): void
  onConfirm(): void
}): JSX.Element {
  const t = useT()
  return (
    <Dialog.Root open={props.open} onOpenChange={(open) => !open && props.onCancel()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog confirm-delete">
          <Dialog.Title>{props.title}</Dialog.Title>
          <Dialog.Description>{props.children}</Dialog.Description>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">{t('common.cancel')}</button>
            </Dialog.Close>
            <button type="button" className="danger" onClick={props.onConfirm}>
              {t('common.delete')}
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
