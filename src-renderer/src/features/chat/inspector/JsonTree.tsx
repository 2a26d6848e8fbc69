/**
 * A logged JSON object, one collapsible part per top-level key, as plain text (never
 * HTML). A search keeps the parts that contain it, open, with each match marked. An image
 * the request carries (a `data:` URL) is shown as a small preview with its size in pixels
 * and bytes, and stands in the text as one line, never as pages of base64.
 */
import { useState, type JSX, type ReactNode } from 'react'
import { intlLocale, useT } from '../../../i18n'

/** marks per part at most: a huge log stays responsive */
const MAX_MARKS = 500

export function highlight(text: string, query: string): ReactNode[] {
  if (!query) return [text]
  const lower = text.toLowerCase()
  const q = query.toLowerCase()
  const out: ReactNode[] = []
  let from = 0
  for (
    let at = lower.indexOf(q);
    at !== -1 && out.length < MAX_MARKS * 2;
    at = lower.indexOf(q, from)
  ) {
    if (at > from) out.push(text.slice(from, at))
    out.push(<mark key={at}>{text.slice(at, at + q.length)}</mark>)
    from = at + q.length
  }
  out.push(text.slice(from))
  return out
}

const IMAGE_URL = /^data:(image\/[a-z0-9.+-]+);base64,/

/** the bytes a base64 text stands for */
function base64Bytes(url: string): number {
  const data = url.slice(url.indexOf(',') + 1)
  return Math.floor((data.length * 3) / 4)
}

/** the line an image's data URL stands as in the text */
function imageLine(url: string): string {
  const type = IMAGE_URL.exec(url)?.[1] ?? 'image'
  return `[${type}, ${base64Bytes(url).toLocaleString('en-US')} bytes: shown above]`
}

function pretty(value: unknown): string {
  if (typeof value === 'string') return IMAGE_URL.test(value) ? imageLine(value) : value
  return (
    JSON.stringify(
      value,
      (_key, v: unknown) => (typeof v === 'string' && IMAGE_URL.test(v) ? imageLine(v) : v),
      2,
    ) ?? String(value)
  )
}

/** every image `data:` URL in a logged value */
function imagesIn(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') {
    if (IMAGE_URL.test(value)) out.push(value)
  } else if (Array.isArray(value)) {
    for (const v of value) imagesIn(v, out)
  } else if (value && typeof value === 'object') {
    for (const v of Object.values(value)) imagesIn(v, out)
  }
  return out
}

function ImagePreview(props: { url: string; n: number }): JSX.Element {
  const [size, setSize] = useState<string | null>(null)
  const t = useT()
  const bytes = base64Bytes(props.url).toLocaleString(intlLocale())
  return (
    <figure className="logged-image">
      <img
        src={props.url}
        alt={t('inspector.imageAlt', { n: props.n })}
        onLoad={(e) => setSize(`${e.currentTarget.naturalWidth}×${e.currentTarget.naturalHeight}`)}
      />
      <figcaption className="meta">
        {size
          ? t('inspector.imageSized', { n: props.n, size, bytes })
          : t('inspector.image', { n: props.n, bytes })}
      </figcaption>
    </figure>
  )
}

export function JsonTree(props: {
  label: string
  value: Record<string, unknown> | null
  query: string
}): JSX.Element {
  const { value, query } = props
  const t = useT()
  if (!value) return <p className="meta">{t('inspector.notLogged', { what: props.label })}</p>
  const q = query.trim().toLowerCase()
  const images = imagesIn(value)
  const parts = Object.entries(value)
    .map(([key, v]) => ({ key, text: pretty(v) }))
    .filter((p) => !q || p.key.toLowerCase().includes(q) || p.text.toLowerCase().includes(q))
  return (
    <div className="json-tree" role="group" aria-label={props.label}>
      <p className="label">{props.label}</p>
      {images.length > 0 ? (
        <div className="logged-images">
          {images.map((url, i) => (
            <ImagePreview key={i} url={url} n={i + 1} />
          ))}
        </div>
      ) : null}
      {parts.length === 0 ? (
        <p className="meta">{t('inspector.noMatch', { query: query.trim() })}</p>
      ) : null}
      {parts.map((p) => (
        <details key={p.key} open={q ? true : undefined}>
          <summary>
            <code>{p.key}</code>
          </summary>
          <pre tabIndex={0}>{highlight(p.text, query.trim())}</pre>
        </details>
      ))}
    </div>
  )
}
