/**
 * What the assistants list does besides editing: duplicate, export (the host's save dialog
 * or a download, as a chat's export), import a file, delete. Each says how it went in one
 * line: done in a status, failed in an alert.
 */
import { useState } from 'react'
import type { Assistant } from '../../../../src-preload/contract/assistants'
import type { PermissionPolicy } from '../../../../src-preload/contract/dto'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { dropAssistant, putAssistant } from '../../state/assistant-queries'

export type Notice = { kind: 'done' | 'error'; text: string } | null

/** a file's text (FileReader: every host's page has it) */
function readText(file: File): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader()
    reader.onload = () => resolve(String(reader.result ?? ''))
    reader.onerror = () => reject(reader.error ?? new Error('the file could not be read'))
    reader.readAsText(file)
  })
}

/** the largest file read for an import (the route takes at most a million characters) */
const MAX_IMPORT = 1_000_000
const TOO_LARGE = 'the file is too large to be an assistant.'

/** an imported assistant whose file's policy was not applied: the user chooses */
export interface PendingPolicy {
  assistant: Assistant
  policy: PermissionPolicy
}

export function useAssistantActions() {
  const { bridge, client, platform } = usePlatform()
  const [notice, setNotice] = useState<Notice>(null)
  const [pendingPolicy, setPendingPolicy] = useState<PendingPolicy | null>(null)

  /** runs `act`, which answers what it did; a failure is said as "Could not <what>: why" */
  const attempt = async (what: string, act: () => Promise<string>): Promise<void> => {
    setNotice(null)
    try {
      setNotice({ kind: 'done', text: await act() })
    } catch (e) {
      setNotice({
        kind: 'error',
        text: `Could not ${what}: ${e instanceof Error ? e.message : String(e)}`,
      })
    }
  }

  const duplicate = (a: Assistant): Promise<void> =>
    attempt(`duplicate ${a.name}`, async () => {
      const copy = await call(bridge, 'assistants.duplicate', { id: a.id })
      putAssistant(client, copy)
      return `Duplicated ${a.name} as ${copy.name}.`
    })

  const exportFile = (a: Assistant): Promise<void> =>
    attempt(`export ${a.name}`, async () => {
      const f = await call(bridge, 'assistants.export', { id: a.id })
      const where = await platform.saveFile(f.filename, f.mimeType, f.content)
      return where ? `Exported ${a.name} to ${where}.` : `Exported ${a.name} as ${f.filename}.`
    })

  const importFile = (file: File): Promise<void> =>
    attempt(`import ${file.name}`, async () => {
      if (file.size === 0) throw new Error('the file is empty.')
      if (file.size > MAX_IMPORT * 4) throw new Error(TOO_LARGE)
      const text = await readText(file)
      if (text.length > MAX_IMPORT) throw new Error(TOO_LARGE)
      const r = await call(bridge, 'assistants.import', { text })
      putAssistant(client, r.assistant)
      if (r.policyNotApplied)
        setPendingPolicy({ assistant: r.assistant, policy: r.policyNotApplied })
      const imported = r.renamedFrom
        ? `Imported ${r.assistant.name} (an assistant named ${r.renamedFrom} already exists).`
        : `Imported ${r.assistant.name}.`
      return r.policyNotApplied ? `${imported} It follows your permission policy.` : imported
    })

  /** the user chose the file's policy after all */
  const usePolicy = (p: PendingPolicy): Promise<void> =>
    attempt(`change the policy of ${p.assistant.name}`, async () => {
      setPendingPolicy(null)
      const { id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = p.assistant
      const saved = await call(bridge, 'assistants.update', {
        id,
        assistant: { ...draft, permissionPolicy: p.policy },
      })
      putAssistant(client, saved)
      return `${saved.name} uses the policy of its file.`
    })

  const remove = (a: Assistant): Promise<void> =>
    attempt(`delete ${a.name}`, async () => {
      await call(bridge, 'assistants.delete', { id: a.id })
      dropAssistant(client, a.id)
      return `Deleted ${a.name}.`
    })

  return {
    notice,
    setNotice,
    duplicate,
    exportFile,
    importFile,
    remove,
    pendingPolicy,
    keepPolicy: () => setPendingPolicy(null),
    usePolicy,
  }
}
