/**
 * What the composer says beside its box: why a message was not sent (with a link to the
 * provider's settings when the provider is the problem), the help, or what a command did.
 */
import type { JSX } from 'react'
import type { ErrorInfo } from '../../../../src-preload/contract/dto'
import { useT } from '../../i18n'
import { useErrorText } from '../../ui/error-text'
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
  const t = useT()
  const errorText = useErrorText()
  return (
    <div className="composer-feedback" role="status">
      {error ? (
        <>
          <span id={COMPOSER_ERROR_ID} className="error">
            {t('composer.notSent', { error: errorText(error) })}
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
  const t = useT()
  return (
    <div className="help">
      <p>{t('composer.help.commands')}</p>
      <ul>
        {COMMANDS.map((c) => (
          <li key={c.name}>
            <code>{c.usage}</code> — {t(`composer.help.command.${c.name}`)}
          </li>
        ))}
      </ul>
      <p>{t('composer.help.shortcuts')}</p>
      <ul>
        {SHORTCUTS.map((s) => (
          <li key={s.keys}>
            <kbd>{s.keys}</kbd> — {t(`composer.help.shortcut.${s.key}`)}
          </li>
        ))}
      </ul>
    </div>
  )
}
