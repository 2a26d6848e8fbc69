/**
 * "Inspect" under an answer: a dialog with the LLM calls of the answer's turn, as the
 * turn logs recorded them.
 */
import * as Dialog from '@radix-ui/react-dialog'
import { useQuery } from '@tanstack/react-query'
import { useState, type JSX } from 'react'
import { useLive, usePlatform } from '../../../state/context'
import { call } from '../../../state/queries'
import { CallDetails } from './CallDetails'
import { loadTurnCalls } from './turn-calls'
import './inspector.css'

function TurnCalls(props: { sessionId: string; turnId: string }): JSX.Element {
  const { bridge } = usePlatform()
  const [query, setQuery] = useState('')
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
        Reading the turn logs…
      </p>
    )
  if (calls.isError)
    return (
      <p className="error" role="alert">
        Could not read the turn logs: {calls.error.message}
      </p>
    )
  if (calls.data.length === 0)
    return (
      <p className="meta">
        No LLM call of this turn is in the logs (they are kept for a limited number of days).
      </p>
    )
  return (
    <>
      <label className="inspector-search">
        Search in this turn
        <input type="search" value={query} onChange={(e) => setQuery(e.target.value)} />
      </label>
      <p className="meta">
        {calls.data.length} LLM call{calls.data.length === 1 ? '' : 's'}. API keys are never logged;
        Copy as curl reads the key from $CAIRN_API_KEY.
      </p>
      {calls.data.map((c) => (
        <CallDetails key={c.number} call={c} query={query} />
      ))}
    </>
  )
}

export function InspectButton(props: { turnId: string }): JSX.Element | null {
  const sessionId = useLive((s) => s.currentId)
  const [open, setOpen] = useState(false)
  if (!sessionId) return null
  return (
    <Dialog.Root open={open} onOpenChange={setOpen}>
      <Dialog.Trigger asChild>
        <button type="button" className="action">
          Inspect
        </button>
      </Dialog.Trigger>
      <Dialog.Portal>
        <Dialog.Overlay className="backdrop" />
        <Dialog.Content className="dialog inspector">
          <div className="dialog-head">
            <Dialog.Title>Turn inspector</Dialog.Title>
            <Dialog.Close asChild>
              <button type="button" className="action">
                Close
              </button>
            </Dialog.Close>
          </div>
          <Dialog.Description className="meta">
            What Cairn sent to the model for this answer, and what came back.
          </Dialog.Description>
          {open ? <TurnCalls sessionId={sessionId} turnId={props.turnId} /> : null}
        </Dialog.Content>
      </Dialog.Portal>
    </Dialog.Root>
  )
}
