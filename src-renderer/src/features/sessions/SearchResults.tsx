/**
 * Search results, one group per chat: its title once (marked when it matched; it opens
 * the chat), then one row per matching message with its snippet (opens the chat at that
 * message). A chat with many hits shows `PER_CHAT` of them and "N more in this chat".
 * Arrow keys move between the results.
 */
import { useState, type JSX, type KeyboardEvent } from 'react'
import type { SearchHit } from '../../../../src-preload/contract/dto'
import type { HitGroup } from './group-hits'
import { useT } from '../../i18n'
import { Snippet } from './snippet'

export const PER_CHAT = 3

/** the role of a hit's message, by its key under sidebar.role */
const ROLE: Record<string, 'user' | 'assistant' | 'tool'> = {
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
}

function Group(props: {
  group: HitGroup
  onChoose(sessionId: string, hit: SearchHit | null): void
}): JSX.Element {
  const g = props.group
  const [all, setAll] = useState(false)
  const t = useT()
  const title = g.title || t('chat.untitled')
  const shown = all ? g.hits : g.hits.slice(0, PER_CHAT)
  const more = g.hits.length - shown.length
  return (
    <li className="hit-group">
      <button type="button" className="hit-title" onClick={() => props.onChoose(g.sessionId, null)}>
        {g.titleSnippet ? <Snippet text={g.titleSnippet} /> : title}
      </button>
      {shown.length > 0 ? (
        <ul className="hits" aria-label={t('sidebar.matchesIn', { title })}>
          {shown.map((h) => (
            <li key={h.messageId}>
              <button type="button" className="hit" onClick={() => props.onChoose(g.sessionId, h)}>
                <span className="hit-role">
                  {ROLE[h.role ?? ''] ? t(`sidebar.role.${ROLE[h.role ?? '']!}`) : t('sidebar.role.note')}
                </span>{' '}
                <Snippet className="hit-snippet" text={h.snippet} />
              </button>
            </li>
          ))}
        </ul>
      ) : null}
      {more > 0 ? (
        <button type="button" className="action hit-more" onClick={() => setAll(true)}>
          {t('sidebar.more', { count: more })}
        </button>
      ) : null}
    </li>
  )
}

export function SearchResults(props: {
  groups: HitGroup[]
  pending: boolean
  error: string | null
  onChoose(sessionId: string, hit: SearchHit | null): void
  onLeave(): void
}): JSX.Element {
  const t = useT()
  const onKeyDown = (e: KeyboardEvent<HTMLElement>): void => {
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return
    const buttons = [...e.currentTarget.querySelectorAll<HTMLElement>('button')]
    const at = buttons.indexOf(document.activeElement as HTMLElement)
    e.preventDefault()
    if (e.key === 'ArrowUp' && at <= 0) return props.onLeave()
    buttons[Math.min(buttons.length - 1, at + (e.key === 'ArrowDown' ? 1 : -1))]?.focus()
  }
  return (
    <div className="search-results" onKeyDown={onKeyDown}>
      {props.error ? (
        <p className="field-error" role="alert">
          {t('sidebar.searchFailed', { error: props.error })}
        </p>
      ) : null}
      <p className="visually-hidden" role="status">
        {props.pending ? t('sidebar.searching') : t('sidebar.found', { count: props.groups.length })}
      </p>
      <ul role="list" aria-label={t('sidebar.results')} aria-busy={props.pending}>
        {props.groups.map((g) => (
          <Group key={g.sessionId} group={g} onChoose={props.onChoose} />
        ))}
      </ul>
      {!props.pending && !props.error && props.groups.length === 0 ? (
        <p className="meta sidebar-note">{t('sidebar.noMatches')}</p>
      ) : null}
    </div>
  )
}
