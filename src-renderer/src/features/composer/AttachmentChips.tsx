/** The resources attached to the message being written, each with a button that removes it. */
import type { JSX } from 'react'
import type { ResourceRef } from '../../../../src-preload/contract/resources-and-prompts'
import '../../ui/attachment-chips.css'

export interface Attachment {
  key: string
  ref: ResourceRef
  label: string
  detail: string
}

export function AttachmentChips(props: {
  attachments: readonly Attachment[]
  onRemove: (key: string) => void
}): JSX.Element | null {
  if (props.attachments.length === 0) return null
  return (
    <ul className="attachment-chips" aria-label="Attached resources">
      {props.attachments.map((a) => (
        <li key={a.key} className="attachment-chip" title={a.detail}>
          <span aria-hidden="true">@</span>
          <span className="attachment-label">{a.label}</span>
          <button
            type="button"
            aria-label={`Remove ${a.label}`}
            onClick={() => props.onRemove(a.key)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}
