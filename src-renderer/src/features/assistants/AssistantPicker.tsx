/**
 * The chat's assistant, in the header: a new chat starts with the one picked (the default
 * unless another is); a chat that exists switches from its next turn (a running turn keeps
 * its own, and the header says so). Absent while the host lists no assistants.
 */
import { useEffect, useState, type JSX } from 'react'
import { useT } from '../../i18n'
import { useLive } from '../../state/context'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { useSession } from '../../state/queries'
import { useAssistants } from '../../state/assistant-queries'
import './assistants.css'

export function AssistantPicker(): JSX.Element | null {
  const sessionId = useLive((s) => s.currentId)
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const picked = useLive((s) => (s.sessions[NEW_CHAT] ?? emptyLive).assistant)
  const setAssistant = useLive((s) => s.setAssistant)
  const session = useSession(sessionId).data
  const list = useAssistants()
  const [error, setError] = useState<string | null>(null)
  const [changedWhileRunning, setChanged] = useState(false)
  const t = useT()
  // the pick shows at once, while a session's switch is asked for
  const [pending, setPending] = useState<string | null>(null)
  useEffect(() => {
    if (!running) setChanged(false)
  }, [running])
  useEffect(() => {
    setError(null)
    setChanged(false)
  }, [sessionId])
  // the assistant picked for the new chat was deleted meanwhile: it starts with the default
  const stale =
    sessionId === null &&
    picked !== null &&
    list.data !== undefined &&
    !list.data.assistants.some((a) => a.id === picked)
  const defaultId = list.data?.defaultId
  useEffect(() => {
    if (stale && defaultId) void setAssistant(defaultId)
  }, [stale, defaultId, setAssistant])
  if (!list.data) return null

  const { assistants } = list.data
  const own = sessionId ? (session?.assistant ?? null) : null
  const current =
    pending ??
    (sessionId ? (own?.id ?? '') : stale ? list.data.defaultId : (picked ?? list.data.defaultId))
  // the session's assistant was deleted: the session goes on with its copy
  const gone = own !== null && (own.deleted === true || !assistants.some((a) => a.id === own.id))
  const note = error
    ? t('assistants.picker.notSwitched', { error })
    : changedWhileRunning && running
      ? t('assistants.picker.nextTurn')
      : ''

  return (
    <span className="assistant-picker">
      <label className="meta" htmlFor="assistant-picker">
        {t('assistants.picker.label')}
      </label>
      <select
        id="assistant-picker"
        title={
          sessionId ? t('assistants.picker.thisChat') : t('assistants.picker.newChat')
        }
        value={current}
        disabled={sessionId !== null && !session}
        onChange={(e) => {
          const id = e.target.value
          if (!id) return
          setError(null)
          if (running) setChanged(true)
          setPending(id)
          void setAssistant(id).then((why) => {
            setPending(null)
            setError(why)
          })
        }}
      >
        {current === '' ? <option value="">{t('assistants.picker.choose')}</option> : null}
        {gone ? <option value={own.id}>{t('assistants.picker.deleted', { name: own.name })}</option> : null}
        {assistants
          .filter((a) => !(gone && a.id === own.id))
          .map((a) => (
            <option key={a.id} value={a.id}>
              {a.name}
              {a.id === list.data.defaultId ? ` ${t('assistants.picker.default')}` : ''}
            </option>
          ))}
      </select>
      <span role="status" className={error ? 'error' : 'meta'}>
        {note}
      </span>
    </span>
  )
}
