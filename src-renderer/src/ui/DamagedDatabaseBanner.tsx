/**
 * Cairn's database was found damaged while the window runs: says what is wrong and what to
 * do, and offers "Start a new database…", which moves the damaged file aside (kept, for
 * recovery) and starts a new, empty one — only with consent: the desktop app asks in its
 * own dialog, browser mode asks here first.
 */
import { useState, type JSX } from 'react'
import { useStore } from 'zustand'
import { usePlatform } from '../state/context'

type Step =
  | { kind: 'told' }
  | { kind: 'confirming' }
  | { kind: 'working' }
  | { kind: 'moved'; movedTo: string }
  | { kind: 'failed'; message: string }

export function DamagedDatabaseBanner(): JSX.Element | null {
  const { bridge, damage, platform } = usePlatform()
  const message = useStore(damage, (s) => s.message)
  const [step, setStep] = useState<Step>({ kind: 'told' })
  const [hidden, setHidden] = useState(false)
  if (message === null || hidden) return null

  const replace = async (): Promise<void> => {
    setStep({ kind: 'working' })
    const r = await bridge.request('app.replaceDamagedDatabase', {})
    if (!r.ok) setStep({ kind: 'failed', message: r.error.message })
    else if (r.data.movedTo === null) setStep({ kind: 'told' })
    else setStep({ kind: 'moved', movedTo: r.data.movedTo })
  }
  // the desktop app asks in its own dialog; a page asks here
  const start = (): void => {
    if (platform.kind === 'desktop') void replace()
    else setStep({ kind: 'confirming' })
  }
  const reopen = (): void => {
    window.location.hash = '#/new'
    window.location.reload()
  }

  if (step.kind === 'moved') {
    return (
      <div className="banner damaged-database" role="alert">
        <p>
          The damaged database was moved to <code>{step.movedTo}</code> (kept, for recovery). A
          new, empty one is in use.
        </p>
        <button type="button" className="primary" onClick={reopen}>
          Continue
        </button>
      </div>
    )
  }
  return (
    <div className="banner damaged-database" role="alert" aria-label="Cairn’s database is damaged">
      <p>
        <strong>Cairn’s database is damaged.</strong> {message}
      </p>
      {step.kind === 'failed' && <p>Cairn could not start a new database: {step.message}</p>}
      {step.kind === 'confirming' ? (
        <p>
          Move the damaged database aside and start a new, empty one? Running answers stop, and
          the chats in it are no longer listed; the file is kept next to the new one, for
          recovery. Your settings and API keys are kept.{' '}
          <button type="button" className="danger" onClick={() => void replace()}>
            Start a new database
          </button>{' '}
          <button type="button" onClick={() => setStep({ kind: 'told' })}>
            Cancel
          </button>
        </p>
      ) : (
        <p>
          <button
            type="button"
            className="primary"
            disabled={step.kind === 'working'}
            onClick={start}
          >
            Start a new database…
          </button>{' '}
          <button type="button" onClick={() => setHidden(true)}>
            Not now
          </button>
        </p>
      )}
    </div>
  )
}
