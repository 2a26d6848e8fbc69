/**
 * Settings › General › "Import chats…": an export of ChatGPT, Claude or Cairn, chosen in the
 * system's dialog (the desktop app) or the page's file input (browser mode, uploaded as a
 * stream), or dropped here; a bar while it is read, with Cancel; then what was imported and
 * what was skipped, and why. Titles come from the file: shown as text, never as markup.
 */
import { useRef, useState, type DragEvent, type JSX } from 'react'
import type { ImportRun, ImportSkip } from '../../../../src-preload/contract/dto'
import type { ErrorInfo } from '../../../../src-preload/contract/errors'
import type { ImportFile } from '../../../../src-preload/contract/routes'
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
import { call, errorInfoOf } from '../../state/queries'
import { usePlatform } from '../../state/context'
import { useImportRuns, useStartImport } from '../../state/imports'
import './import-chats.css'

function ImportError(props: { error: ErrorInfo }): JSX.Element {
  const t = useT()
  const errorText = useErrorText()
  const e = props.error
  return (
    <p className="field-error" role="alert">
      {e.code === 'import_unreadable' && e.details
        ? t('general.import.unreadable', {
            file: e.details.file,
            problem: t(`general.import.fileProblem.${e.details.problem}`),
          })
        : e.code === 'internal'
          ? t('general.import.failed')
          : errorText(e)}
    </p>
  )
}

function Skipped(props: { skipped: ImportSkip[] }): JSX.Element | null {
  const t = useT()
  if (props.skipped.length === 0) return null
  return (
    <ul className="import-skipped" aria-label={t('general.import.skippedList')}>
      {props.skipped.map((k) => (
        <li key={k.position}>
          {t('general.import.skippedItem', {
            position: k.position,
            title: k.title || t('general.import.untitled'),
            problem: t(`general.import.skipProblem.${k.problem}`),
          })}
        </li>
      ))}
    </ul>
  )
}

function RunView(props: { run: ImportRun; onCancel: () => void }): JSX.Element {
  const t = useT()
  const { run } = props
  if (run.state === 'running') {
    const { bytes, totalBytes, conversations } = run.progress
    return (
      <div className="import-run" role="status">
        <progress
          aria-label={t('general.import.progressLabel', { name: run.name })}
          max={totalBytes || 1}
          value={totalBytes ? Math.min(bytes, totalBytes) : 0}
        />
        <span>{t('general.import.reading', { count: conversations, name: run.name })}</span>
        <button type="button" onClick={props.onCancel}>
          {t('general.import.cancel')}
        </button>
      </div>
    )
  }
  if (run.state === 'failed')
    return <ImportError error={run.error ?? { code: 'internal', message: '' }} />
  const s = run.summary!
  return (
    <div className="import-run" role="status" aria-label={t('general.import.summaryLabel')}>
      <p>
        {run.state === 'cancelled'
          ? t('general.import.cancelled', { name: run.name })
          : t('general.import.done', { name: run.name })}
      </p>
      <ul className="import-counts">
        <li>{t('general.import.created', { count: s.created })}</li>
        <li>{t('general.import.updated', { count: s.updated })}</li>
        <li>{t('general.import.messages', { count: s.messages })}</li>
        <li>{t('general.import.unchanged', { count: s.unchanged })}</li>
      </ul>
      <Skipped skipped={s.skipped} />
    </div>
  )
}

export function ImportChats(): JSX.Element {
  const t = useT()
  const { platform, bridge } = usePlatform()
  const runs = useImportRuns()
  const startImport = useStartImport()
  const input = useRef<HTMLInputElement>(null)
  const [error, setError] = useState<ErrorInfo | null>(null)
  const [dragging, setDragging] = useState(false)
  const run = runs.data?.imports.at(-1) ?? null
  const running = run?.state === 'running'

  const start = async (file: ImportFile | null): Promise<void> => {
    if (!file) return
    await startImport(file).catch((e: unknown) => setError(errorInfoOf(e)))
  }
  const offer = async (file: File): Promise<void> => {
    setError(null)
    if (!platform.offerImportFile) {
      setError({ code: 'unavailable', message: '' })
      return
    }
    const r = await platform.offerImportFile(file)
    if (!r.ok) setError(r.error)
    else await start(r.data)
  }
  const choose = (): void => {
    setError(null)
    if (platform.pickImportFile)
      void platform.pickImportFile().then(start, (e: unknown) => setError(errorInfoOf(e)))
    else input.current?.click()
  }
  const drop = (e: DragEvent): void => {
    e.preventDefault()
    setDragging(false)
    const file = e.dataTransfer.files[0]
    if (file && !running) void offer(file)
  }
  return (
    <fieldset
      className={`settings-form import-chats${dragging ? ' dragging' : ''}`}
      onDragOver={(e) => {
        e.preventDefault()
        setDragging(true)
      }}
      onDragLeave={() => setDragging(false)}
      onDrop={drop}
    >
      <legend>{t('general.import.legend')}</legend>
      <span className="meta">{t('general.import.about')}</span>
      <div className="import-actions">
        <button type="button" onClick={choose} disabled={running}>
          {t('general.import.choose')}
        </button>
        <input
          ref={input}
          type="file"
          hidden
          accept=".json,.zip,application/json,application/zip"
          aria-label={t('general.import.fileInput')}
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) void offer(file)
          }}
        />
      </div>
      {run ? (
        <RunView
          run={run}
          onCancel={() => void call(bridge, 'imports.cancel', { importId: run.importId })}
        />
      ) : null}
      {error ? <ImportError error={error} /> : null}
    </fieldset>
  )
}
