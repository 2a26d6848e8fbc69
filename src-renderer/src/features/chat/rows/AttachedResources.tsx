/**
 * What a sent message carries: the resources attached with `@`, as chips naming them (their
 * text went to the model), what the message's total left out of them, and for a message made
 * from a server's prompt, which prompt.
 */
import type { JSX } from 'react'
import { Trans, useT } from '../../../i18n'
import '../../../ui/attachment-chips.css'

const PROMPT = 'mcp-prompt:'

export function AttachedResources(props: {
  attached: readonly { uri: string; name: string }[]
  /** what was left out, in words (a note each) */
  cut: readonly string[]
}): JSX.Element {
  const prompts = props.attached.filter((a) => a.uri.startsWith(PROMPT))
  const resources = props.attached.filter((a) => !a.uri.startsWith(PROMPT))
  const t = useT()
  return (
    <>
      {prompts.map((p) => (
        <p key={p.uri} className="prompt-origin">
          <Trans
            i18nKey="files.fromPrompt"
            values={{ name: p.name }}
            components={{ code: <code /> }}
          />
        </p>
      ))}
      {resources.length > 0 ? (
        <ul className="attachment-chips" aria-label={t('files.attachedResources')}>
          {resources.map((a) => (
            <li key={a.uri} className="attachment-chip" title={a.uri}>
              <span aria-hidden="true">@</span>
              <span className="attachment-label">{a.name}</span>
            </li>
          ))}
        </ul>
      ) : null}
      {props.cut.map((note, i) => (
        <p key={i} className="meta attachment-cut">
          {note}
        </p>
      ))}
    </>
  )
}
