/**
 * How full the context window is: the estimated size of the next request over the window
 * (the `sessions.context` route, the estimate the engine uses). Amber from the share of the
 * window where the conversation is summarized (70 % unless the settings say otherwise).
 */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { usePlatform } from '../../state/context'
import { call, useConversation } from '../../state/queries'

const short = (n: number): string =>
  n >= 10_000 ? `${Math.round(n / 1000)}k` : n >= 1000 ? `${(n / 1000).toFixed(1)}k` : String(n)

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
  const d = size.data
  if (!props.sessionId || !d || d.windowTokens <= 0) return null
  const percent = Math.round((d.estimatedTokens / d.windowTokens) * 100)
  const warn = percent >= d.compactAtPercent
  return (
    <div
      className={`context-meter${warn ? ' context-meter-warn' : ''}`}
      role="meter"
      aria-label="Context window used"
      aria-valuemin={0}
      aria-valuemax={d.windowTokens}
      aria-valuenow={Math.min(d.estimatedTokens, d.windowTokens)}
      aria-valuetext={`about ${d.estimatedTokens} of ${d.windowTokens} tokens (${percent} %)`}
      title={`About ${d.estimatedTokens} of ${d.windowTokens} tokens, estimated. The window is from ${d.windowSource}. Past ${d.compactAtPercent} % the earlier conversation is summarized.`}
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
