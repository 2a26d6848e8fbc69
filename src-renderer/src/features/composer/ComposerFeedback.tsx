/**
 * What the composer says beside its box: why a message was not sent (with a link to the
 * provider's settings when the provider is the problem), the help, or what a command did.
 */
import type { JSX } from 'react'
import type { ErrorInfo } from '../../../../src-preload/contract/dto'
import { isProviderProblem, ProviderSettingsLink } from '../../ui/ProviderSettingsLink'
import { COMMANDS, SHORTCUTS } from './commands'

export type Feedback = { kind: 'info' | 'error'; text: string } | { kind: 'help' } | null

/** the id of the reason a message was not sent: the box is described by it */
export const COMPOSER_ERROR_ID = 'composer-error'

export function ComposerFeedback(props: {
  error: ErrorInfo | null
  feedback: Feedback
}): JSX.Element {
  const { error, feedback } = props
  return (
    <div className="composer-feedback" role="status">
      {error ? (
        <>
          <span id={COMPOSER_ERROR_ID} className="error">
            Not sent: {error.message}
          </span>
          {isProviderProblem(error) ? <ProviderSettingsLink /> : null}
        </>
      ) : feedback?.kind === 'help' ? (
        <Help />
      ) : feedback ? (
        <span className={feedback.kind === 'error' ? 'error' : 'meta'}>{feedback.text}</span>
      ) : null}
    </div>
  )
}

function Help(): JSX.Element {
  return (
    <div className="help">
      <p>Commands</p>
      <ul>
        {COMMANDS.map((c) => (
          <li key={c.name}>
            <code>{c.usage}</code> — {c.help}
          </li>
        ))}
      </ul>
      <p>Shortcuts</p>
      <ul>
        {SHORTCUTS.map((s) => (
          <li key={s.keys}>
            <kbd>{s.keys}</kbd> — {s.help}
          </li>
        ))}
      </ul>
    </div>
  )
}
