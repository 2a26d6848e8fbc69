/**
 * Links in model answers are untrusted. Only https: and mailto: links are clickable, and a
 * click first shows the full address in a confirmation dialog; only "Open" opens it (through
 * `openExternal`). Any other link (javascript:, http:, file:, data:, relative…) is inert
 * text that shows where it would have gone.
 */
import {
  createContext,
  useContext,
  useMemo,
  useRef,
  useState,
  type JSX,
  type ReactNode,
} from 'react'
import * as Dialog from '@radix-ui/react-dialog'

export interface LinkGuard {
  openExternal: (url: string) => void
}

/** In the desktop app, main turns this into the OS browser (https:/mailto: only). */
const openInNewWindow = (url: string): void => {
  window.open(url, '_blank', 'noopener,noreferrer')
}

const LinkGuardContext = createContext<LinkGuard>({ openExternal: openInNewWindow })

/** Sets how confirmed links are opened for the Markdown inside it (default: window.open). */
export function LinkGuardProvider(props: {
  openExternal?: (url: string) => void
  children?: ReactNode
}): JSX.Element {
  const openExternal = props.openExternal ?? openInNewWindow
  const value = useMemo<LinkGuard>(() => ({ openExternal }), [openExternal])
  return <LinkGuardContext.Provider value={value}>{props.children}</LinkGuardContext.Provider>
}

/**
 * The address a link may open, normalized by the URL parser (what is shown is exactly what
 * is opened; an internationalized host shows in its punycode form), or null when the link
 * is not an absolute https: or mailto: address.
 */
export function openableUrl(href: string | null | undefined): string | null {
  if (!href) return null
  let url: URL
  try {
    url = new URL(href)
  } catch {
    return null // relative, or not a URL at all
  }
  if (url.protocol === 'https:') return url.hostname === '' ? null : url.href
  if (url.protocol === 'mailto:') return url.href
  return null
}

/** Asks before an address leaves the app: the full address, Cancel focused, then Open. */
export function ConfirmOpen(props: {
  url: string
  open: boolean
  onOpenChange: (open: boolean) => void
  onConfirm: () => void
}): JSX.Element {
  const cancel = useRef<HTMLButtonElement>(null)
  const mail = props.url.startsWith('mailto:')
  return (
    <Dialog.Root open={props.open} onOpenChange={props.onOpenChange}>
      <Dialog.Portal>
        <Dialog.Overlay className="md-dialog-overlay" />
        <Dialog.Content
          className="md-dialog"
          onOpenAutoFocus={(e) => {
            e.preventDefault()
            cancel.current?.focus()
          }}
        >
          <Dialog.Title className="md-dialog-title">Open link?</Dialog.Title>
          <Dialog.Description className="md-dialog-text">
            {mail
              ? 'This link writes an email with your mail app, to:'
              : 'This link opens in your browser. Check the full address:'}
          </Dialog.Description>
          <code className="md-dialog-url" data-testid="md-link-url">
            {props.url}
          </code>
          <div className="md-dialog-actions">
            <Dialog.Close asChild>
              <button type="button" ref={cancel}>
                Cancel
              </button>
            </Dialog.Close>
            <button type="button" className="md-dialog-primary" onClick={props.onConfirm}>
              Open
            </button>
          </div>
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}

/** How confirmed links are opened here (the desktop app's shell, a new tab in browser mode). */
export function useOpenExternal(): (url: string) => void {
  return useContext(LinkGuardContext).openExternal
}

/** A clickable link that asks first. */
function GuardedLink(props: { url: string; children?: ReactNode }): JSX.Element {
  const { openExternal } = useContext(LinkGuardContext)
  const [open, setOpen] = useState(false)
  return (
    <>
      <a
        href={props.url}
        className="md-link"
        title={props.url}
        rel="noopener noreferrer"
        onClick={(e) => {
          // also for Ctrl/Cmd/Shift-click: nothing leaves the app without the dialog
          e.preventDefault()
          setOpen(true)
        }}
        onAuxClick={(e) => {
          e.preventDefault()
          if (e.button === 1) setOpen(true)
        }}
      >
        {props.children}
      </a>
      <ConfirmOpen
        url={props.url}
        open={open}
        onOpenChange={setOpen}
        onConfirm={() => {
          setOpen(false)
          openExternal(props.url)
        }}
      />
    </>
  )
}

/** Whether the address adds nothing to the link text (autolinks: the text is the address). */
function sameAsText(href: string, text: string): boolean {
  const t = text.trim()
  return t === href || `http://${t}` === href || `mailto:${t}` === href
}

/**
 * The `a` of rendered Markdown. `href` is the address as written (urlTransform keeps it);
 * `text` the link's plain text, to show an inert link's address only when it says more.
 */
export function MarkdownLink(props: {
  href: string | undefined
  text: string
  footnote?: 'ref' | 'backref' | undefined
  children?: ReactNode
}): JSX.Element | null {
  const { href = '', text, footnote, children } = props
  // Footnote links point into the page; a back-reference arrow alone would mean nothing.
  if (footnote === 'backref') return null
  if (footnote === 'ref') return <span className="md-fn-ref">{children}</span>
  const url = openableUrl(href)
  if (url !== null) return <GuardedLink url={url}>{children}</GuardedLink>
  const showAddress = href.trim() !== '' && !href.startsWith('#') && !sameAsText(href, text)
  return (
    <span className="md-link-inert" title="Not a clickable link: only https: and mail links are">
      {children}
      {showAddress ? (
        <>
          {' '}
          <span className="md-link-addr">({href})</span>
        </>
      ) : null}
    </span>
  )
}
