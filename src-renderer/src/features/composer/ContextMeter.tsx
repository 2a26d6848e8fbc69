/**
 * How full the context window is: the estimated size of the next request over the window
 * (the `sessions.context` route, the estimate the engine uses). Amber from the share of the
 * window where the conversation is summarized (70 % unless the settings say otherwise).
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { useT } from '../../i18n'
import { useFormat } from '../../i18n/format'
import { usePlatform } from '../../state/context'
import { call, useConversation } from '../../state/queries'


export function ContextMeter(props: { sessionId: string | null }): JSX.Element | null {
  const { bridge } = usePlatform()
  const conversation = useConversation(props.sessionId)
  const last = conversation.data?.messages.at(-1)
  const size = useQuery({
    // a new message, a summary, its undo or a pin changes the estimate
    queryKey: [
      'context',
      props.sessionId,
      conversation.data?.messages.length ?? 0,
      last?.id ?? '',
      conversation.dataUpdatedAt,
    ],
    queryFn: () => call(bridge, 'sessions.context', { id: props.sessionId! }),
    enabled: props.sessionId !== null && conversation.data !== undefined,
    staleTime: Infinity,
  })
  const t = useT()
  const format = useFormat()
  /** 2.5K, 10K (the language's compact form) */
  const short = (n: number): string =>
    format.number(n, n >= 1000 ? { notation: 'compact', maximumFractionDigits: 1 } : {})
  const d = size.data
  if (!props.sessionId || !d || d.windowTokens <= 0) return null
  const percent = Math.round((d.estimatedTokens / d.windowTokens) * 100)
  const warn = percent >= d.compactAtPercent
  return (
    <div
      className={`context-meter${warn ? ' context-meter-warn' : ''}`}
      role="meter"
      aria-label={t('composer.context.label')}
      aria-valuemin={0}
      aria-valuemax={d.windowTokens}
      aria-valuenow={Math.min(d.estimatedTokens, d.windowTokens)}
      aria-valuetext={t('composer.context.value', {
        used: format.number(d.estimatedTokens),
        window: format.number(d.windowTokens),
        percent: format.percent(percent),
      })}
      title={t('composer.context.title', {
        used: format.number(d.estimatedTokens),
        window: format.number(d.windowTokens),
        source: d.windowSource,
        at: format.percent(d.compactAtPercent),
      })}
    >
      <span className="context-meter-bar" aria-hidden="true">
        <span style={{ width: `${Math.min(100, percent)}%` }} />
      </span>
      <span className="meta">
        {short(d.estimatedTokens)} / {short(d.windowTokens)}
      </span>
    </div>
  )
}
