/** This run's downloads: progress, Pause, Resume (from where it stopped), and why one failed. */
import type { JSX } from 'react'
import type { ModelDownload } from '../../../../src-preload/contract/local-models'
import { usePlatform } from '../../state/context'
import { bytes, useModelDownloads, usePull } from '../../state/local-models'
import { call } from '../../state/queries'

const STATE: Record<ModelDownload['state'], string> = {
  downloading: 'Downloading',
  paused: 'Paused',
  verifying: 'Checking its sha256',
  done: 'Added',
  failed: 'Failed',
}

export function Downloads(): JSX.Element | null {
  const downloads = useModelDownloads()
  const list = downloads.data?.downloads ?? []
  if (list.length === 0) return null
  return (
    <section className="settings-form" aria-labelledby="downloads-title">
      <h3 id="downloads-title">Downloads</h3>
      <ul className="model-downloads">
        {list.map((d) => (
          <DownloadRow key={d.id} d={d} />
        ))}
      </ul>
    </section>
  )
}

function DownloadRow({ d }: { d: ModelDownload }): JSX.Element {
  const { bridge } = usePlatform()
  const pull = usePull()
  const resume = (): void =>
    void pull({ repo: d.repo, file: d.file, name: d.name }).catch(() => undefined)
  return (
    <li aria-label={d.file}>
      <strong>{d.name}</strong> <span className="meta">{STATE[d.state]}</span>
      <progress max={d.total} value={d.received} aria-label={`${d.file} downloaded`} />
      <span className="meta">
        {bytes(d.received)} of {bytes(d.total)}
      </span>
      {d.state === 'downloading' ? (
        <button type="button" onClick={() => void call(bridge, 'models.pause', { id: d.id })}>
          Pause
        </button>
      ) : null}
      {d.state === 'paused' || d.state === 'failed' ? (
        <button type="button" onClick={resume}>
          Resume
        </button>
      ) : null}
      {d.error ? (
        <span className="error" role="alert">
          {d.error}
        </span>
      ) : null}
    </li>
  )
}
