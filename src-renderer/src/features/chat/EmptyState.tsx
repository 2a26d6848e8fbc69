import type { JSX } from 'react'
import { Trans, useT } from '../../i18n'

/** A new chat: what Cairn can do, and how to drive it. */
export function EmptyState(): JSX.Element {
  const t = useT()
  return (
    <div className="empty">
      <h2>{t('chat.empty.heading')}</h2>
      <ul>
        <li>{t('chat.empty.ask')}</li>
        <li>{t('chat.empty.tools')}</li>
        <li>{t('chat.empty.stop')}</li>
        <li>
          <Trans i18nKey="chat.empty.commands" components={{ kbd: <kbd />, code: <code /> }} />
        </li>
      </ul>
    </div>
  )
}
