/**
 * What the model will see with the assistant as it is being edited: the host's answer to
 * `assistants.previewTools` for the draft, asked again a moment after the form stops
 * changing (the previous answer stays while the next one comes).
 */
import { keepPreviousData, useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import type { AssistantDraft } from '../../../../src-preload/contract/assistants'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { useDebounced } from '../../ui/use-debounced'

/** how long the form must stay unchanged before the preview is asked again */
const PREVIEW_DELAY_MS = 300

function firstSentence(text: string): string {
  const m = /^[^\n]*?[.!?](?=\s|$)/.exec(text)
  return (m?.[0] ?? text.split('\n')[0] ?? '').slice(0, 200)
}

export function ToolPreview(props: { draft: AssistantDraft }): JSX.Element {
  const { bridge } = usePlatform()
  const asked = useDebounced(JSON.stringify(props.draft), PREVIEW_DELAY_MS)
  const preview = useQuery({
    queryKey: ['assistants.previewTools', asked],
    queryFn: () =>
      call(bridge, 'assistants.previewTools', { assistant: JSON.parse(asked) as AssistantDraft }),
    placeholderData: keepPreviousData,
    staleTime: 10_000,
    retry: false,
  })
  const data = preview.data
  const count = data?.tools.length ?? 0
  return (
    <section
      className="tool-preview"
      aria-labelledby="tool-preview-title"
      aria-busy={preview.isFetching}
    >
      <h3 id="tool-preview-title">Tools the model will see</h3>
      <p role="status" className="meta">
        {preview.isError
          ? ''
          : !data
            ? 'Asking…'
            : count === 0
              ? 'None: the model can only answer in words.'
              : `${count} tool${count === 1 ? '' : 's'}${preview.isFetching ? ' (updating…)' : ''}`}
      </p>
      {preview.isError ? (
        <p role="alert" className="error">
          Could not preview the tools: {preview.error.message}
        </p>
      ) : null}
      {data && count > 0 ? (
        <ul className="tool-preview-list" aria-label="Offered tools">
          {data.tools.map((t) => (
            <li key={`${t.server ?? ''}\n${t.name}`}>
              <span className="tool-preview-name">
                <code>{t.name}</code>
                <span className="meta">{t.server === null ? 'Built-in' : t.server}</span>
                {t.readOnly ? <span className="badge">Read-only</span> : null}
              </span>
              {t.description ? (
                <span className="meta tool-preview-about">{firstSentence(t.description)}</span>
              ) : null}
            </li>
          ))}
        </ul>
      ) : null}
      {data?.findTools ? (
        <p className="meta">
          More tools than one request carries: the model gets the built-in ones and find_tools,
          which searches these.
        </p>
      ) : null}
      {data && data.missing.length > 0 ? (
        <div className="tool-preview-missing">
          <p className="warning-text">Named but not found now (not offered):</p>
          <ul aria-label="Tools not found">
            {data.missing.map((m) => (
              <li key={`${m.server ?? ''}\n${m.name}`}>
                <code>{m.name}</code> <span className="meta">{m.server ?? 'Built-in'}</span>
              </li>
            ))}
          </ul>
        </div>
      ) : null}
    </section>
  )
}
