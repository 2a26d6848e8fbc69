/**
 * What is attached to the message being written, as chips above the box, each with a button
 * "Remove <name>": the files (list "Attachments": a thumbnail made by the engine, off the
 * window's thread, or an icon; name, kind, size and pages; a progress indicator while the
 * engine reads it) and the resources attached with `@` (list "Attached resources"). One
 * chip list for both; names are text, never markup.
 */
import type { JSX, ReactNode } from 'react'
import type { ResourceRef } from '../../../../src-preload/contract/resources-and-prompts'
import { intlLocale, useT } from '../../i18n'
import { countLabel, kindLabel, sizeLabel } from '../../ui/attachment-words'
import { FileIcon } from '../../ui/file-icon'
import type { FileChip } from './use-file-attachments'
import '../../ui/attachment-chips.css'

/** a resource attached with `@` */
export interface Attachment {
  key: string
  ref: ResourceRef
  label: string
  detail: string
}

interface Chip {
  key: string
  name: string
  /** shown on hover (a resource's address) */
  title?: string
  preview: ReactNode
  meta?: string
  reading?: boolean
  /** a button of its own (a scanned PDF's "Send pages as images") */
  action?: ReactNode
}

function ChipList(props: {
  label: string
  className?: string
  chips: readonly Chip[]
  onRemove: (key: string) => void
}): JSX.Element | null {
  const t = useT()
  if (props.chips.length === 0) return null
  return (
    <ul className={`attachment-chips ${props.className ?? ''}`} aria-label={props.label}>
      {props.chips.map((c) => (
        <li key={c.key} className="attachment-chip" title={c.title}>
          {c.preview}
          <span className="attachment-label">{c.name}</span>
          {c.meta ? <span className="meta">{c.meta}</span> : null}
          {c.reading ? (
            <span
              role="progressbar"
              aria-label={t('files.reading', { name: c.name })}
              className="chip-progress"
            />
          ) : null}
          {c.action}
          <button
            type="button"
            aria-label={t('files.remove', { name: c.name })}
            onClick={() => props.onRemove(c.key)}
          >
            ×
          </button>
        </li>
      ))}
    </ul>
  )
}

/** the files: list "Attachments" */
export function FileChips(props: {
  chips: readonly FileChip[]
  onRemove: (key: string) => void
  /** a PDF with no text layer: send its first pages as images instead */
  onPagesAsImages: (key: string) => void
}): JSX.Element | null {
  const t = useT()
  const locale = intlLocale()
  const chips = props.chips.map((c): Chip => {
    const part = c.taken?.part
    const facts = part
      ? [kindLabel(part.source.mediaType, t), sizeLabel(part.source.bytes, locale)]
      : [sizeLabel(c.bytes, locale)]
    if (part?.pages)
      facts.push(t('files.pages', { count: part.pages, n: countLabel(part.pages, locale) }))
    const scanned = part?.noText === true && part.mediaType === 'application/pdf'
    if (scanned) facts.push(t('files.noText'))
    return {
      key: c.key,
      name: c.name,
      preview: <FilePreview chip={c} />,
      meta: facts.join(' · '),
      reading: !c.taken,
      action: scanned ? (
        <button
          type="button"
          className="chip-action"
          aria-label={t('files.pagesAsImagesOf', { name: c.name })}
          onClick={() => props.onPagesAsImages(c.key)}
        >
          {t('files.pagesAsImages')}
        </button>
      ) : undefined,
    }
  })
  return (
    <ChipList
      label={t('files.list')}
      className="file-chips"
      chips={chips}
      onRemove={props.onRemove}
    />
  )
}

function FilePreview({ chip }: { chip: FileChip }): JSX.Element {
  const thumb = chip.taken?.thumbnail
  if (thumb) return <img className="chip-thumb" src={thumb} alt="" />
  return (
    <span className="chip-icon">
      <FileIcon kind={chip.taken?.part.kind === 'image' ? 'image' : 'document'} />
    </span>
  )
}

/** the resources attached with `@`: list "Attached resources" */
export function AttachmentChips(props: {
  attachments: readonly Attachment[]
  onRemove: (key: string) => void
}): JSX.Element | null {
  const t = useT()
  const chips = props.attachments.map((a): Chip => ({
    key: a.key,
    name: a.label,
    title: a.detail,
    preview: <span aria-hidden="true">@</span>,
  }))
  return <ChipList label={t('files.attachedResources')} chips={chips} onRemove={props.onRemove} />
}
