/**
 * Settings › General, the desktop app only: the Quick ask shortcut (changed, or switched
 * off; a shortcut another app holds is refused with a message and the one before stays) and
 * whether closing the window keeps Cairn in the tray.
 */
import { useEffect, useState, type JSX } from 'react'
import type { DesktopStatus } from '../../../../src-preload/contract/desktop'
import { useT } from '../../i18n'
import { call, errorInfoOf } from '../../platform/request'
import { usePlatform } from '../../state/context'

type Message = { kind: 'saved' } | { kind: 'error'; text: string } | null

export function QuickAskForm(): JSX.Element | null {
  const { platform } = usePlatform()
  const t = useT()
  const [status, setStatus] = useState<DesktopStatus | null>(null)
  const [draft, setDraft] = useState('')
  const [message, setMessage] = useState<Message>(null)
  const desktop = platform.kind === 'desktop'
  useEffect(() => {
    if (!desktop) return
    void call(platform.bridge, 'desktop.status', {})
      .then((s) => {
        setStatus(s)
        setDraft(s.quickAsk.shortcut ?? s.quickAsk.defaultShortcut)
      })
      .catch(() => setStatus(null))
  }, [desktop, platform])
  if (!desktop || !status) return null

  const failed = (e: unknown): void => {
    const info = errorInfoOf(e)
    if (info.code === 'shortcut_taken')
      setMessage({
        kind: 'error',
        text: t('general.desktop.taken', { shortcut: info.details?.shortcut ?? draft }),
      })
    else if (info.code === 'bad_request')
      setMessage({
        kind: 'error',
        text: Object.values(info.details?.fields ?? {})[0] ?? info.message,
      })
    else setMessage({ kind: 'error', text: info.message })
  }
  const setShortcut = (shortcut: string | null): void => {
    setMessage(null)
    void call(platform.bridge, 'desktop.setQuickAskShortcut', { shortcut })
      .then((s) => {
        setStatus(s)
        setMessage({ kind: 'saved' })
      })
      .catch(failed)
  }
  const setCloseToTray = (closeToTray: boolean): void => {
    void call(platform.bridge, 'desktop.setCloseToTray', { closeToTray }).then(setStatus, failed)
  }
  const { shortcut, registered } = status.quickAsk
  const heldAtStart = shortcut !== null && !registered
  return (
    <fieldset className="settings-form">
      <legend>{t('general.desktop.legend')}</legend>
      <label className="check-option">
        <input
          type="checkbox"
          checked={shortcut !== null}
          onChange={(e) =>
            setShortcut(e.target.checked ? draft.trim() || status.quickAsk.defaultShortcut : null)
          }
        />
        {t('general.desktop.enabled')}
      </label>
      <form
        className="field-row"
        onSubmit={(e) => {
          e.preventDefault()
          setShortcut(draft.trim())
        }}
      >
        <label>
          {t('general.desktop.shortcut')}
          <input
            value={draft}
            aria-describedby="quick-ask-shortcut-hint"
            aria-invalid={message?.kind === 'error'}
            onChange={(e) => setDraft(e.target.value)}
          />
        </label>
        <button type="submit" disabled={shortcut === null || draft.trim() === shortcut}>
          {t('general.desktop.save')}
        </button>
      </form>
      <span id="quick-ask-shortcut-hint" className="meta">
        {t('general.desktop.shortcutHint')}
      </span>
      {message?.kind === 'error' ? (
        <p role="alert" className="error">
          {message.text}
        </p>
      ) : heldAtStart ? (
        <p role="alert" className="error">
          {t('general.desktop.heldAtStart', { shortcut })}
        </p>
      ) : message?.kind === 'saved' ? (
        <p role="status" className="meta">
          {t('general.desktop.saved')}
        </p>
      ) : null}
      <label className="check-option">
        <input
          type="checkbox"
          checked={status.closeToTray === true}
          onChange={(e) => setCloseToTray(e.target.checked)}
        />
        {t('general.desktop.closeToTray')}
      </label>
    </fieldset>
  )
}
