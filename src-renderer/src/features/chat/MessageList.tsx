import { useEffect, useMemo, useRef, type JSX } from 'react'
import { historyItems } from '../../state/history'
import { useChat } from '../../state'
import type { TurnItem } from '../../state/turn-reducer'
import { ToolCallCard } from './ToolCallCard'

function Reasoning(props: { text: string; live: boolean }): JSX.Element | null {
  if (!props.text) return null
  return (
    <details className="reasoning" open={props.live}>
      <summary>Thinking</summary>
      <p>{props.text}</p>
    </details>
  )
}

function LiveItem(props: { item: TurnItem }): JSX.Element {
  const it = props.item
  if (it.kind === 'assistant') {
    return (
      <article className="msg assistant" aria-live="polite">
        <Reasoning text={it.reasoning} live={it.open && !it.text} />
        <div className="text">{it.text}</div>
        {it.status === 'stopped' ? <p className="meta">Stopped</p> : null}
        {it.status === 'interrupted' ? <p className="meta">Interrupted</p> : null}
      </article>
    )
  }
  if (it.kind === 'tool') {
    return (
      <ToolCallCard
        name={it.name}
        server={it.server}
        rawArguments={it.rawArguments}
        status={it.status}
        result={it.result}
      />
    )
  }
  return <p className={`notice notice-${it.level}`}>{it.message}</p>
}

export function MessageList(): JSX.Element {
  const history = useChat((s) => s.history)
  const turn = useChat((s) => s.turn)
  const lastEnd = useChat((s) => s.lastEnd)
  const end = useRef<HTMLDivElement>(null)
  // messages of the running turn are shown from its events, not twice
  const shown = useMemo(
    () =>
      historyItems(
        turn ? history.filter((m) => m.turnId !== turn.turnId || m.role === 'user') : history,
      ),
    [history, turn],
  )
  useEffect(() => {
    // (newer browsers return a promise from scrollIntoView: never hand it to React)
    void end.current?.scrollIntoView?.({ block: 'end' })
  })
  return (
    <div className="messages" role="log" aria-label="Conversation">
      {shown.map((m) =>
        m.kind === 'user' ? (
          <article key={m.id} className="msg user">
            <div className="text">{m.text}</div>
          </article>
        ) : m.kind === 'assistant' ? (
          <article key={m.id} className="msg assistant">
            <Reasoning text={m.reasoning} live={false} />
            {m.text ? <div className="text">{m.text}</div> : null}
            {m.tools.map((t) => (
              <ToolCallCard
                key={t.id}
                name={t.name}
                rawArguments={t.rawArguments}
                status={t.status}
                result={t.result}
              />
            ))}
            {m.status !== 'complete' ? (
              <p className="meta">{m.status === 'stopped' ? 'Stopped' : 'Interrupted'}</p>
            ) : null}
          </article>
        ) : (
          <p key={m.id} className="notice">
            {m.text}
          </p>
        ),
      )}
      {turn?.items.map((it, i) => (
        <LiveItem key={i} item={it} />
      ))}
      {lastEnd ? (
        <p className="notice notice-warning" role="alert">
          {lastEnd}
        </p>
      ) : null}
      <div ref={end} />
    </div>
  )
}
