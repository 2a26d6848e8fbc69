/**
 * Search the hub for GGUF repositories by name; a repository's files with their size,
 * quantization and whether they fit this machine's memory; Download starts one.
 */
import { useQuery } from '@tanstack/react-query'
import { useState, type FormEvent, type JSX } from 'react'
import type { HubFile } from '../../../../src-preload/contract/local-models'
import { usePlatform } from '../../state/context'
import { bytes, usePull } from '../../state/local-models'
import { call } from '../../state/queries'
import { Field } from '../../ui/forms/Field'

export function HubSearch(): JSX.Element {
  const { bridge } = usePlatform()
  const [text, setText] = useState('')
  const [query, setQuery] = useState<string | null>(null)
  const [repo, setRepo] = useState<string | null>(null)
  const found = useQuery({
    queryKey: ['hub', 'search', query],
    queryFn: () => call(bridge, 'models.search', { query: query ?? '' }),
    enabled: query !== null,
    retry: false,
  })
  const submit = (e: FormEvent): void => {
    e.preventDefault()
    if (!text.trim()) return
    setRepo(null)
    setQuery(text.trim())
  }
  return (
    <section className="settings-form" aria-labelledby="hub-title">
      <h3 id="hub-title">Download from Hugging Face</h3>
      <form role="search" aria-label="Search Hugging Face" onSubmit={submit} className="hub-search">
        <Field label="Model name" hint="GGUF repositories whose name has these words.">
          {(ids) => (
            <input
              {...ids}
              value={text}
              placeholder="qwen3"
              onChange={(e) => setText(e.target.value)}
            />
          )}
        </Field>
        <button type="submit">Search</button>
      </form>
      {found.isFetching ? <p className="meta">Searching…</p> : null}
      {found.error ? (
        <p className="error" role="alert">
          {found.error.message}
        </p>
      ) : null}
      {found.data ? (
        found.data.repos.length === 0 ? (
          <p className="meta">No GGUF repository matches “{query}”.</p>
        ) : (
          <ul className="hub-repos" aria-label="Repositories found">
            {found.data.repos.map((r) => (
              <li key={r.repo}>
                <button
                  type="button"
                  aria-expanded={repo === r.repo}
                  onClick={() => setRepo(repo === r.repo ? null : r.repo)}
                >
                  {r.repo}
                </button>
                {r.downloads !== null ? (
                  <span className="meta"> {r.downloads} downloads</span>
                ) : null}
                {repo === r.repo ? <RepoFiles repo={r.repo} /> : null}
              </li>
            ))}
          </ul>
        )
      ) : null}
    </section>
  )
}

function RepoFiles(props: { repo: string }): JSX.Element {
  const { bridge } = usePlatform()
  const files = useQuery({
    queryKey: ['hub', 'files', props.repo],
    queryFn: () => call(bridge, 'models.files', { repo: props.repo }),
    retry: false,
  })
  if (files.error)
    return (
      <p className="error" role="alert">
        {files.error.message}
      </p>
    )
  if (!files.data) return <p className="meta">Listing its files…</p>
  if (files.data.files.length === 0) return <p className="meta">It has no GGUF file.</p>
  return (
    <table className="hub-files" aria-label={`GGUF files of ${props.repo}`}>
      <thead>
        <tr>
          <th scope="col">File</th>
          <th scope="col">Size</th>
          <th scope="col">Quantization</th>
          <th scope="col">This machine</th>
          <th scope="col">
            <span className="visually-hidden">Download</span>
          </th>
        </tr>
      </thead>
      <tbody>
        {files.data.files.map((f) => (
          <FileRow key={f.file} f={f} />
        ))}
      </tbody>
    </table>
  )
}

function FileRow({ f }: { f: HubFile }): JSX.Element {
  const pull = usePull()
  const [error, setError] = useState<string | null>(null)
  return (
    <tr>
      <td>
        <code>{f.file}</code>
        {error ? (
          <span className="error field-error" role="alert">
            {error}
          </span>
        ) : null}
      </td>
      <td>{bytes(f.size)}</td>
      <td>{f.quantization ?? '—'}</td>
      <td>{f.fits ? 'Fits' : 'Too large'}</td>
      <td>
        <button
          type="button"
          disabled={!f.fits}
          aria-label={`Download ${f.file}`}
          onClick={() => {
            setError(null)
            pull({ repo: f.repo, file: f.file }).catch((e: unknown) =>
              setError(e instanceof Error ? e.message : String(e)),
            )
          }}
        >
          Download
        </button>
      </td>
    </tr>
  )
}
