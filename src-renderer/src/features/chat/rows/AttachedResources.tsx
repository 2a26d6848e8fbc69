/** The resources a sent message carries, as chips naming them (their text went to the model). */
import type { JSX } from 'react'
import '../../composer/resources.css'

export function AttachedResources(props: {
  attached: readonly { uri: string; name: string }[]
}): JSX.Element {
  return (
    <ul className="attachment-chips" aria-label="Attached resources">
      {props.attached.map((a) => (
        <li key={a.uri} className="attachment-chip" title={a.uri}>
          <span aria-hidden="true">@</span>
          <span className="attachment-label">{a.name}</span>
        </li>
      ))}
    </ul>
  )
}
