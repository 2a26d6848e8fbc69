/**
 * A search snippet with its matches highlighted. The host wraps matches in U+0002 … U+0003
 * (see the `sessions.search` route); the parts become text and `<mark>` elements, never
 * HTML.
 */
import type { JSX } from 'react'

const OPEN = '\u0002'
const CLOSE = '\u0003'

export interface SnippetPart {
  text: string
  match: boolean
}

export function snippetParts(snippet: string): SnippetPart[] {
  const parts: SnippetPart[] = []
  let match = false
  let text = ''
  const flush = (): void => {
    if (text) parts.push({ text, match })
    text = ''
  }
  for (const ch of snippet) {
    if (ch === OPEN || ch === CLOSE) {
      flush()
      match = ch === OPEN
    } else text += ch
  }
  flush()
  return parts
}

export function Snippet(props: { text: string; className?: string }): JSX.Element {
  return (
    <span className={props.className}>
      {snippetParts(props.text.replace(/\s+/g, ' ')).map((p, i) =>
        p.match ? <mark key={i}>{p.text}</mark> : <span key={i}>{p.text}</span>,
      )}
    </span>
  )
}
