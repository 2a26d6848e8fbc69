/**
 * A server asks the user something while one of its tool calls runs (MCP elicitation):
 * "<server> asks", its message, and either a form built from its schema (defaults filled
 * in; Submit checks each field and shows what is wrong beside it) or, in URL mode, the
 * address it wants opened, which opens only when the user chooses to. Submit (or Open),
 * Decline and Cancel; Esc cancels. One question at a time, oldest first, from any session,
 * after the approvals waiting (they come first). Like the approval dialog, focus starts on
 * the dialog itself and a key press that began elsewhere activates no button.
 */
import {
  useEffect,
  useMemo,
  useRef,
  useState,
  type FormEvent,
  type JSX,
  type ReactNode,
} from 'react'
import {
  checkElicitation,
  elicitationFields,
  initialValues,
  type ElicitAnswer,
  type ElicitContent,
  type ElicitRaw,
} from '../../../../src-preload/contract/elicitation'
import type { ElicitationRequestEvent } from '../../../../src-preload/contract/events'
import { useLive, usePlatform } from '../../state/context'
import { serverLabel } from '../../ui/tool-label'
import { AskDialog } from '../../ui/ask-dialog/AskDialog'
import { useDeliberateKeys } from '../../ui/ask-dialog/deliberate-keys'
import { StopTurnButton } from '../../ui/ask-dialog/StopTurnButton'
import { ElicitationFields } from './ElicitationFields'
import './elicitation.css'

/** only web addresses are offered to the browser */
function openable(url: string | undefined): url is string {
  try {
    return url !== undefined && ['http:', 'https:'].includes(new URL(url).protocol)
  } catch {
    return false
  }
}

export function ElicitationDialog(): JSX.Element {
  const waiting = useLive((s) => s.elicitations)
  const approvals = useLive((s) => s.approvals.length)
  const answerElicitation = useLive((s) => s.answerElicitation)
  const { platform } = usePlatform()
  const request: ElicitationRequestEvent | null = approvals === 0 ? (waiting[0] ?? null) : null
  const content = useRef<HTMLDivElement>(null)
  const deliberate = useDeliberateKeys(content, request?.requestId ?? null)
  const [refused, setRefused] = useState<string | null>(null)

  useEffect(() => {
    setRefused(null)
    if (request) requestAnimationFrame(() => content.current?.focus())
  }, [request?.requestId])

  const send = async (answer: ElicitAnswer): Promise<void> => {
    if (!request) return
    const why = await answerElicitation(request.requestId, answer)
    setRefused(why)
  }

  const button =
    (action: 'decline' | 'cancel' | 'open') =>
    (e: { currentTarget: EventTarget; detail: number }): void => {
      if (!request || !deliberate(e.currentTarget, e.detail)) return
      if (action === 'open') {
        if (!openable(request.url)) return
        platform.openExternal(request.url)
        void send({ action: 'accept' })
      } else void send({ action })
    }

  const actions = (primary: ReactNode): JSX.Element => (
    <div className="dialog-actions">
      <StopTurnButton
        key={request?.requestId}
        turnId={request?.turnId ?? ''}
        deliberate={deliberate}
      />
      <button type="button" onClick={button('cancel')}>
        Cancel
      </button>
      <button type="button" className="danger" onClick={button('decline')}>
        Decline
      </button>
      {primary}
    </div>
  )

  return (
    <AskDialog
      sessionId={request?.sessionId ?? null}
      contentRef={content}
      className="dialog elicitation"
      title={request ? `${serverLabel(request.server)} asks` : ''}
      waiting={waiting.length}
      describedBy="elicit-message"
      onEscape={() => void send({ action: 'cancel' })}
    >
      {request ? (
        <>
          <p className="elicit-message" id="elicit-message">
            {request.message}
          </p>
          {refused ? (
            <p className="field-error" role="alert">
              The answer was not accepted: {refused}
            </p>
          ) : null}
          {request.mode === 'url' ? (
            <UrlQuestion url={request.url} onOpen={button('open')} actions={actions} />
          ) : (
            <FormQuestion
              key={request.requestId}
              request={request}
              onAnswer={(content) => void send({ action: 'accept', content })}
              actions={actions}
            />
          )}
        </>
      ) : null}
    </AskDialog>
  )
}

/** URL mode: the address, opened in the browser only if the user chooses to */
function UrlQuestion(props: {
  url: string | undefined
  onOpen(e: { currentTarget: EventTarget; detail: number }): void
  actions(primary: ReactNode): JSX.Element
}): JSX.Element {
  const { url } = props
  return (
    <>
      <p className="label">The server wants this address opened in your browser</p>
      <pre className="elicit-url" aria-label="Address" tabIndex={0}>
        {url}
      </pre>
      {openable(url) ? null : (
        <p className="field-error">This is not a web address; it cannot be opened.</p>
      )}
      {props.actions(
        openable(url) ? (
          <button type="button" className="primary" onClick={props.onOpen}>
            Open in browser
          </button>
        ) : null,
      )}
    </>
  )
}

/**
 * Form mode: the fields of the server's schema, defaults filled in; Submit checks each field
 * and shows what is wrong beside it (the first wrong field takes the focus).
 */
function FormQuestion(props: {
  request: ElicitationRequestEvent
  onAnswer(content: ElicitContent): void
  actions(primary: ReactNode): JSX.Element
}): JSX.Element {
  const read = useMemo(() => elicitationFields(props.request.requestedSchema), [props.request])
  const fields = read.ok ? read.fields : []
  const [values, setValues] = useState<ElicitRaw>(() => initialValues(fields))
  const [errors, setErrors] = useState<Record<string, string>>({})

  const submit = (e: FormEvent): void => {
    e.preventDefault()
    const checked = checkElicitation(fields, values)
    if (!checked.ok) {
      setErrors(checked.errors)
      const first = fields.find((f) => checked.errors[f.name])
      if (first) document.getElementById(`elicit-${first.name}`)?.focus()
      return
    }
    setErrors({})
    props.onAnswer(checked.content)
  }

  return (
    <form noValidate onSubmit={submit} aria-label="Answer">
      {!read.ok ? (
        <p className="field-error">This form cannot be shown: {read.error}.</p>
      ) : (
        <ElicitationFields
          fields={fields}
          values={values}
          errors={errors}
          idPrefix="elicit"
          onChange={(name, v) => {
            setValues((old) => ({ ...old, [name]: v }))
            setErrors(({ [name]: _, ...rest }) => rest)
          }}
        />
      )}
      {props.actions(
        read.ok ? (
          <button type="submit" className="primary">
            Submit
          </button>
        ) : null,
      )}
    </form>
  )
}
