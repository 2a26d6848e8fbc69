/**
 * The files attached to the message being written, in a list named "Attachments": each a
 * chip with a thumbnail (images; made by the engine, off the window's thread) or an icon,
 * its name (as text), size and pages, a progress indicator while it is read, and a button
 * "Remove <name>".
 */
import type { JSX } from 'react'
import { countLabel, kindLabel, sizeLabel } from '../../ui/attachment-words'
import type { FileChip } from './use-file-attachments'
import '../../ui/attachment-chips.css'

export function FileChips(props: {
  chips: readonly FileChip[]
  onRemove: (key: string) => void
}): JSX.Element | null {
  if (props.chips.length === 0) return null
  return (
    <ul className="attachment-chips file-chips" aria-label="Attachments">
      {props.chips.map((c) => (
        <li key={c.key} className="attachment-chip file-chip">
          <ChipPreview chip={c} />
          <span className="attachment-label">{c.name}</span>
          <span className="meta">{facts(c)}</span>
          {c.taken ? null : (
            <span role="progressbar" aria-label={`Reading ${c.name}`} className="chip-progress" />
          )}
          <button
            type="button"
            aria-label={`Remove ${c.name}`}
            onClick={() => props.onRemove(c.key)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}

function ChipPreview({ chip }: { chip: FileChip }): JSX.Element {
  const thumb = chip.taken?.thumbnail
  if (thumb) return <img className="chip-thumb" src={thumb} alt="" />
  return (
    <span className="chip-icon" aria-hidden="true">
      {chip.taken?.part.kind === 'image' ? '🖼' : '📄'}
    </span>
  )
}

function facts(c: FileChip): string {
  const part = c.taken?.part
  if (!part) return sizeLabel(c.bytes)
  const out = [kindLabel(part.source.mediaType), sizeLabel(part.source.bytes)]
  if (part.pages) out.push(`${countLabel(part.pages)} ${part.pages === 1 ? 'page' : 'pages'}`)
  return out.join(' · ')
}
