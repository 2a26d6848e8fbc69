/**
 * An attached file's icon, drawn in the text's colour (no emoji font needed): a page for a
 * document, a framed picture for an image. Decorative: the file's name says what it is.
 */
import type { JSX } from 'react'

export function FileIcon({ kind }: { kind: 'image' | 'document' }): JSX.Element {
  return (
    <svg
      className="file-icon"
      viewBox="0 0 16 16"
      width="16"
      height="16"
      aria-hidden="true"
      focusable="false"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.2"
    >
      {kind === 'image' ? (
        <>
          <rect x="1.5" y="2.5" width="13" height="11" rx="1.5" />
          <circle cx="5.5" cy="6.2" r="1.3" fill="currentColor" stroke="none" />
          <path d="M2 12.5l4-4 3 3 2-2 3.5 3.5" />
        </>
      ) : (
        <>
          <path d="M3.5 1.5h6l3 3v10h-9z" />
          <path d="M9.5 1.5v3h3M5.5 8h5M5.5 10.5h5" />
        </>
      )}
    </svg>
  )
}
