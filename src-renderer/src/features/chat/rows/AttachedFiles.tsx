/**
 * The files a sent message carries: images as thumbnails (click or Enter opens the image
 * large, Esc closes it), documents as cards (name, type, pages, characters extracted, and
 * "Show extracted text"). Names are text, never markup; the pixels come from the engine.
 */
import * as Dialog from '@radix-ui/react-dialog'
import { useEffect, useState, type JSX } from 'react'
import type { AttachmentPart } from '../../../../../src-preload/contract/dto'
import { call } from '../../../platform/request'
import { intlLocale, useT } from '../../../i18n'
import { useErrorText } from '../../../ui/error-text'
import { usePlatform } from '../../../state/context'
import { countLabel, kindLabel, sizeLabel } from '../../../ui/attachment-words'
import { FileIcon } from '../../../ui/file-icon'
import './attached-files.css'

export function AttachedFiles(props: { files: readonly AttachmentPart[] }): JSX.Element {
  const images = props.files.filter((f) => f.kind === 'image')
  const documents = props.files.filter((f) => f.kind === 'document')
  const t = useT()
  return (
    <div className="attached-files">
      {images.length > 0 ? (
        <ul className="attached-images" aria-label={t('files.attachedImages')}>
          {images.map((f) => (
            <li key={f.id}>
              <ImageThumb file={f} />
            </li>
          ))}
        </ul>
      ) : null}
      {documents.map((f) => (
        <DocumentCard key={f.id} file={f} />
      ))}
    </div>
  )
}

/** a route's answer once, while the component is shown (null until then, or on failure) */
function useAnswer<T>(load: () => Promise<T>, key: string): T | null {
  const [value, setValue] = useState<T | null>(null)
  useEffect(() => {
    let live = true
    load().then(
      (v) => live && setValue(v),
      () => live && setValue(null),
    )
    return () => {
      live = false
    }
    // `key` names what is loaded: `load` is a new function at each render
  }, [key])
  return value
}

function ImageThumb({ file }: { file: AttachmentPart }): JSX.Element {
  const { bridge } = usePlatform().platform
  const [open, setOpen] = useState(false)
  const t = useT()
  const thumb = useAnswer(
    async () => (await call(bridge, 'attachments.thumbnail', { id: file.id })).url,
    file.id,
  )
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button
          type="button"
          className="image-thumb"
          aria-label={t('files.open', { name: file.name })}
        >
          {thumb ? <img src={thumb} alt="" /> : <FileIcon kind="image" />}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog image-viewer" aria-describedby={undefined}>
          <Dialog.Title>{file.name}</Dialog.Title>
          {open ? <LargeImage file={file} /> : null}
          <p className="meta">
            {file.width && file.height ? `${file.width}×${file.height} · ` : ''}
            {t('files.asSent', { size: sizeLabel(file.bytes, intlLocale()) })}
          </p>
          <div className="dialog-actions">
            <Dialog.Close asChild>
              <button type="button">{t('common.close')}</button>
            </Dialog.Close>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

function LargeImage({ file }: { file: AttachmentPart }): JSX.Element {
  const { bridge } = usePlatform().platform
  const t = useT()
  const url = useAnswer(async () => {
    const f = await call(bridge, 'attachments.get', { id: file.id })
    // only the image types the engine writes are shown
    if (f.mediaType !== 'image/jpeg' && f.mediaType !== 'image/png') return null
    return `data:${f.mediaType};base64,${f.data}`
  }, file.id)
  if (!url) return <p className="meta">{t('common.loading')}</p>
  return <img className="large-image" src={url} alt={file.name} />
}

function DocumentCard({ file }: { file: AttachmentPart }): JSX.Element {
  const { bridge } = usePlatform().platform
  const [text, setText] = useState<string | null>(null)
  const [shown, setShown] = useState(false)
  const t = useT()
  const errorText = useErrorText()
  const locale = intlLocale()
  const facts = [kindLabel(file.mediaType, t), sizeLabel(file.bytes, locale)]
  if (file.pages)
    facts.push(t('files.pages', { count: file.pages, n: countLabel(file.pages, locale) }))
  facts.push(
    file.noText
      ? t('files.noText')
      : t('files.charsExtracted', {
          count: file.chars ?? 0,
          n: countLabel(file.chars ?? 0, locale),
        }),
  )
  const toggle = (): void => {
    setShown(!shown)
    if (text === null)
      void call(bridge, 'attachments.text', { id: file.id }).then(
        (r) => setText(r.text ?? t('files.gone')),
        (e: unknown) => setText(errorText(e)),
      )
  }
  return (
    <section className="document-card" aria-label={file.name}>
      <span className="document-icon">
        <FileIcon kind="document" />
      </span>
      <div>
        <div className="document-name">{file.name}</div>
        <div className="meta">{facts.join(' · ')}</div>
        {file.noText ? null : (
          <button type="button" className="action" aria-expanded={shown} onClick={toggle}>
            {shown ? t('files.hideText') : t('files.showText')}
          </button>
        )}
        {shown ? <pre className="extracted-text">{text ?? t('common.loading')}</pre> : null}
      </div>
    </section>
  )
}
