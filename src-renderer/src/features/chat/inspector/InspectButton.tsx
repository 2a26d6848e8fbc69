/**
 * "Inspect" under an answer: a dialog with the LLM calls of the answer's turn, as the
 * turn logs recorded them.
 */
import * as Dialog from '@radix-ui/react-dialog'
import { useQuery } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import { useLive, usePlatform } from '../../../state/context'
import { call } from '../../../state/queries'
import { useT } from '../../../i18n'
import { useErrorText } from '../../../ui/error-text'
import { CallDetails } from './CallDetails'
import { loadTurnCalls } from './turn-calls'
import './inspector.css'

function TurnCalls(props: { sessionId: string; turnId: string }): JSX.Element {
  const { bridge } = usePlatform()
  const [query, setQuery] = useState('')
  const t = useT()
  const errorText = useErrorText()
  const calls = useQuery({
    queryKey: ['turn-calls', props.sessionId, props.turnId],
    queryFn: () =>
      loadTurnCalls(
        (page) => call(bridge, 'logs.turns', { sessionId: props.sessionId, ...page }),
        props.turnId,
      ),
    staleTime: 0,
  })
  if (calls.isPending)
    return (
      <p className="meta" role="status">
        {t('inspector.reading')}
      </p>
    )
  if (calls.isError)
    return (
      <p className="error" role="alert">
        {t('inspector.readFailed', { error: errorText(calls.error) })}
      </p>
    )
  if (calls.data.length === 0)
    return (
      <p className="meta">{t('inspector.none')}</p>
    )
  return (
    <>
      <label className="inspector-search">
        {t('inspector.search')}
        <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      <p className="meta">{t('inspector.calls', { count: calls.data.length })}</p>
      {calls.data.map((c) => (
        <CallDetails key={c.number} call={c} query={query} />
      ))}
    </>
  )
}

export function InspectButton(props: { turnId: string }): JSX.Element | null {
  const sessionId = useLive((s) => s.currentId)
  const [open, setOpen] = useState(false)
  const t = useT()
  if (!sessionId) return null
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="action">
          {t('inspector.open')}
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog inspector">
          <div className="dialog-head">
            <Dialog.Title>{t('inspector.title')}</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="action">
                {t('common.close')}
              </button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="meta">
            {t('inspector.about')}
          </Dialog.Description>
          {open ? <TurnCalls sessionId={sessionId} turnId={props.turnId} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
