/**
 * Claude Desktop extensions (`.mcpb`) in Settings › MCP servers: "Install extension…" (the
 * system's file dialog in the desktop app, the page's file input in browser mode) and a
 * bundle dropped anywhere on the section. The engine unpacks and checks it; the review
 * shows what it is and what it needs, and installs it switched off.
 */
import { useQueryClient } from '@tanstack/react-query'
import { useRef, useState, type DragEvent, type JSX, type ReactNode } from 'react'
import type { ExtensionReview } from '../../../../src-preload/contract/mcpb'
import type { Result } from '../../../../src-preload/contract/routes'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { setServers } from '../../state/mcp-servers'
import { call } from '../../state/queries'
import { McpExtensionReview } from './McpExtensionReview'

const BUNDLE = /\.(mcpb|dxt)$/i

function bundleIn(e: DragEvent): File | null {
  const files = [...e.dataTransfer.files]
  return files.find((f) => BUNDLE.test(f.name)) ?? null
}

export function McpExtensionInstall(props: {
  readOnly: boolean
  /** what to say once one is installed (translated) */
  onAdded(notice: string): void
  children: ReactNode
}): JSX.Element {
  const t = useT()
  const { platform, bridge } = usePlatform()
  const client = useQueryClient()
  const input = useRef<HTMLInputElement>(null)
  const [review, setReview] = useState<ExtensionReview | null>(null)
  const [busy, setBusy] = useState(false)
  const [error, setError] = useState<string | null>(null)
  const [dragging, setDragging] = useState(false)

  const opened = async (work: Promise<Result<ExtensionReview | null>>): Promise<void> => {
    setBusy(true)
    setError(null)
    const r = await work
    setBusy(false)
    if (!r.ok) setError(r.error.message)
    else if (r.data) {
      if (review) void call(bridge, 'mcp.extensionDiscard', { stageId: review.stageId })
      setReview(r.data)
    }
  }
  const openFile = (file: File): void => void opened(platform.openExtension(file))
  const choose = (): void => {
    const pick = platform.pickExtension
    if (pick) void opened(pick().then((r) => (r.ok ? { ok: true, data: r.data.review } : r)))
    else input.current?.click()
  }
  const install = async (name: string, values: Record<string, string>): Promise<void> => {
    if (!review) return
    setBusy(true)
    setError(null)
    try {
      const r = await call(bridge, 'mcp.extensionInstall', {
        stageId: review.stageId,
        name,
        values,
      })
      setServers(client, r.servers)
      setReview(null)
      props.onAdded(t('extensions.added', { name }))
    } catch (e) {
      setError((e as Error).message)
    } finally {
      setBusy(false)
    }
  }
  const cancel = (): void => {
    if (review) void call(bridge, 'mcp.extensionDiscard', { stageId: review.stageId })
    setReview(null)
    setError(null)
  }
  const drop = props.readOnly
    ? {}
    : {
        onDragOver: (e: DragEvent) => {
          if (![...e.dataTransfer.types].includes('Files')) return
          e.preventDefault()
          setDragging(true)
        },
        onDragLeave: () => setDragging(false),
        onDrop: (e: DragEvent) => {
          setDragging(false)
          const file = bundleIn(e)
          if (!file) return
          e.preventDefault()
          openFile(file)
        },
      }

  return (
    <div className={dragging ? 'mcp-drop dragging' : 'mcp-drop'} {...drop}>
      {props.children}
      {props.readOnly ? null : (
        <section aria-labelledby="mcp-extension-title" className="settings-form">
          <h3 id="mcp-extension-title">{t('extensions.title')}</h3>
          {review ? (
            <McpExtensionReview
              review={review}
              busy={busy}
              error={error}
              onInstall={(name, values) => void install(name, values)}
              onCancel={cancel}
            />
          ) : (
            <>
              <p className="meta">{t('extensions.intro')}</p>
              <div className="form-actions">
                <button type="button" className="primary" disabled={busy} onClick={choose}>
                  {t('extensions.install')}
                </button>
                {busy ? (
                  <span role="status" className="meta">
                    {t('extensions.opening')}
                  </span>
                ) : null}
              </div>
              <input
                ref={input}
                type="file"
                accept=".mcpb,.dxt"
                hidden
                aria-label={t('extensions.fileInput')}
                onChange={(e) => {
                  const file = e.target.files?.[0]
                  e.target.value = ''
                  if (file) openFile(file)
                }}
              />
              {error ? (
                <p role="alert" className="error">
                  {error}
                </p>
              ) : null}
            </>
          )}
        </section>
      )}
    </div>
  )
}
