/**
 * The first run's offline choice: "Download a small model and chat offline", one model
 * that fits this machine, downloaded with its progress; once it is checked and added, the
 * chat is ready on it (the provider `local`).
 */
import { useQuery } from '@tanstack/react-query'
import { useEffect, useState, type JSX } from 'react'
import type { ModelDownload } from '../../../../src-preload/contract/local-models'
import { usePlatform } from '../../state/context'
import { bytes, useModelDownloads, usePull } from '../../state/local-models'
import { call } from '../../state/queries'
import type { NewProvider } from './provider-patch'

export function LocalModelOffer(props: { onReady: (p: NewProvider) => void }): JSX.Element | null {
  const { bridge } = usePlatform()
  const offer = useQuery({
    queryKey: ['local-models', 'recommended'],
    queryFn: () => call(bridge, 'models.recommended', {}),
    staleTime: Infinity,
    retry: false,
  })
  const downloads = useModelDownloads()
  const pull = usePull()
  const [id, setId] = useState<string | null>(null)
  const [error, setError] = useState<string | null>(null)
  const model = offer.data?.model
  const d: ModelDownload | undefined = downloads.data?.downloads.find((x) => x.id === id)
  const done = d?.state === 'done' ? d.name : null
  const { onReady } = props
  useEffect(() => {
    if (!done) return
    // chosen as the provider explicitly, so a provider added later does not take its place unasked
    void call(bridge, 'settings.update', { activeProviderId: 'local', activeModel: done }).then(
      () =>
        onReady({
          id: 'local',
          name: 'Cairn’s own runtime',
          baseURL: 'this machine, offline',
          model: done,
        }),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    )
  }, [done, bridge, onReady])
  if (!model) return null
  const start = (): void => {
    setError(null)
    pull({ repo: model.repo, file: model.file }).then(
      (started) => setId(started.id),
      (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
    )
  }
  return (
    <section className="onb-local" aria-labelledby="onb-local-title">
      <h3 id="onb-local-title">Download a small model and chat offline</h3>
      <p>
        {model.label} ({bytes(model.size)}) runs on this machine: no account, no key, and no network
        once it is downloaded.
      </p>
      {d && d.state !== 'failed' ? (
        <p>
          <progress max={d.total} value={d.received} aria-label={`${model.label} downloaded`} />{' '}
          <span className="meta" role="status">
            {d.state === 'verifying'
              ? 'Checking the file…'
              : `${bytes(d.received)} of ${bytes(d.total)}`}
          </span>
        </p>
      ) : (
        <button type="button" className="primary" onClick={start}>
          Download {model.label}
        </button>
      )}
      {error || d?.error ? (
        <p className="error" role="alert">
          {error ?? d?.error}
        </p>
      ) : null}
    </section>
  )
}
