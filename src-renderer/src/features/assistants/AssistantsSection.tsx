/**
 * Assistants (`#/settings/assistants`): the list, a new one, editing one (with the tools
 * the model will see), duplicating, exporting, importing a file, deleting one.
 */
import { useState, type JSX, type RefObject } from 'react'
import type { Assistant } from '../../../../src-preload/contract/assistants'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import { ConfirmDeleteDialog } from '../../ui/ConfirmDeleteDialog'
import { SettingsLoading } from '../../ui/forms/SettingsLoading'
import { useFreshSettings } from '../../ui/forms/use-save-settings'
import { useSectionMode } from '../../ui/forms/use-section-mode'
import { AssistantForm } from './AssistantForm'
import { AssistantList } from './AssistantList'
import { ImportPolicyDialog } from './ImportPolicyDialog'
import { blankForm, formFromDraft } from './assistant-form'
import { useAssistants, type AssistantList as List } from '../../state/assistant-queries'
import { useAssistantActions } from './use-assistant-actions'
import '../../ui/forms/forms.css'
import './assistants.css'

type Mode = { kind: 'list' } | { kind: 'new' } | { kind: 'edit'; id: string }

export function AssistantsSection(): JSX.Element {
  const settings = useFreshSettings()
  const list = useAssistants(true)
  if (!settings.data) return <SettingsLoading query={settings} />
  if (!list.data) return <SettingsLoading query={list} what="the assistants" />
  return <Assistants list={list.data} settings={settings.data} />
}

function Assistants(props: { list: List; settings: SettingsView }): JSX.Element {
  const { list, settings } = props
  const { mode, setMode, toList, listButton: newButton } = useSectionMode<Mode>({ kind: 'list' })
  const [deleting, setDeleting] = useState<Assistant | null>(null)
  const actions = useAssistantActions()

  const done = (saved: string | null): void => {
    toList()
    actions.setNotice(saved ? { kind: 'done', text: `Saved ${saved}.` } : null)
  }
  const names = (except: string | null): string[] =>
    list.assistants.filter((a) => a.id !== except).map((a) => a.name)

  if (mode.kind === 'new')
    return (
      <AssistantForm
        editing={null}
        initial={blankForm()}
        otherNames={names(null)}
        settings={settings}
        onDone={done}
      />
    )
  const edited = mode.kind === 'edit' ? list.assistants.find((a) => a.id === mode.id) : null
  if (edited)
    return (
      <AssistantForm
        key={edited.id}
        editing={edited}
        initial={formFromDraft(edited)}
        otherNames={names(edited.id)}
        settings={settings}
        onDone={done}
      />
    )

  const { notice } = actions
  return (
    <div className="assistants">
      <p className="meta section-intro">
        An assistant is a set-up a chat runs with: its prompt, model, the tools the model may use
        and how they run. Pick one in a new chat, or in a chat’s header.
      </p>
      <ListActions
        newButton={newButton}
        onNew={() => setMode({ kind: 'new' })}
        onImport={(file) => void actions.importFile(file)}
        done={notice?.kind === 'done' ? notice.text : ''}
      />
      {notice?.kind === 'error' ? (
        <p role="alert" className="error">
          {notice.text}
        </p>
      ) : null}
      <AssistantList
        assistants={list.assistants}
        defaultId={list.defaultId}
        actions={{
          edit: (a) => setMode({ kind: 'edit', id: a.id }),
          duplicate: (a) => void actions.duplicate(a),
          exportFile: (a) => void actions.exportFile(a),
          askDelete: setDeleting,
        }}
      />
      <ConfirmDeleteDialog
        open={deleting !== null}
        title="Delete this assistant?"
        onCancel={() => setDeleting(null)}
        onConfirm={() => {
          const a = deleting
          setDeleting(null)
          if (a) void actions.remove(a)
        }}
      >
        “{deleting?.name}” will be deleted. Chats that use it keep their own copy of it and go on
        working as before; new chats can no longer pick it.
      </ConfirmDeleteDialog>
      <ImportPolicyDialog
        choice={
          actions.pendingPolicy
            ? {
                name: actions.pendingPolicy.assistant.name,
                policy: actions.pendingPolicy.policy,
                yours: settings.permissionPolicy,
              }
            : null
        }
        onKeep={actions.keepPolicy}
        onUseFile={() => {
          if (actions.pendingPolicy) void actions.usePolicy(actions.pendingPolicy)
        }}
      />
    </div>
  )
}

/** New assistant, Import… (a file), and what the last action did */
function ListActions(props: {
  newButton: RefObject<HTMLButtonElement | null>
  onNew(): void
  onImport(file: File): void
  done: string
}): JSX.Element {
  return (
    <div className="form-actions assistants-actions">
      <button ref={props.newButton} type="button" className="primary" onClick={props.onNew}>
        New assistant
      </button>
      <label className="button file-button">
        Import…
        <input
          type="file"
          accept=".json,application/json"
          aria-label="Import an assistant from a file"
          className="visually-hidden"
          onChange={(e) => {
            const file = e.target.files?.[0]
            e.target.value = ''
            if (file) props.onImport(file)
          }}
        />
      </label>
      <span role="status" className="meta">
        {props.done}
      </span>
    </div>
  )
}
