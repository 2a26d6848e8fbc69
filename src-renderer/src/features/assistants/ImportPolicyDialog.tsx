/**
 * After an import whose file carried a permission policy looser than the user's: the
 * assistant was imported with the user's policy; this dialog shows the file's and lets the
 * user keep theirs (the default: the button that has focus, Esc, closing) or take the file's.
 */
import * as Dialog from '@radix-ui/react-dialog'
import type { JSX } from 'react'
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'
import { POLICY_EFFECTS, POLICY_LABELS } from './policy-labels'

export interface PolicyChoice {
  name: string
  /** the file's policy, not applied */
  policy: PermissionPolicy
  /** the settings' policy, which the assistant follows now */
  yours: PermissionPolicy
}

export function ImportPolicyDialog(props: {
  choice: PolicyChoice | null
  onKeep(): void
  onUseFile(): void
}): JSX.Element {
  const c = props.choice
  return (
    <Dialog.Root open={c !== null} onOpenChange={(open) => !open && props.onKeep()}>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        {c ? (
          <Dialog.Content className="dialog import-policy">
            <Dialog.Title>Use the file’s permission policy?</Dialog.Title>
            <Dialog.Description>
              “{c.name}” came with the policy “{POLICY_LABELS[c.policy]}”:{' '}
              {POLICY_EFFECTS[c.policy]}. That asks less than yours, “{POLICY_LABELS[c.yours]}” (
              {POLICY_EFFECTS[c.yours]}), so it was imported with yours.
            </Dialog.Description>
            <div className="dialog-actions">
              <Dialog.Close asChild>
                <button type="button" className="primary" autoFocus>
                  Keep my policy
                </button>
              </Dialog.Close>
              <button type="button" className="danger" onClick={props.onUseFile}>
                Use “{POLICY_LABELS[c.policy]}”
              </button>
            </div>
          </Dialog.Content>
        ) : null}
      </Dialog.Portal>
    </Dialog.Root>
  )
}
