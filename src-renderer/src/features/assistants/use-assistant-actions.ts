/**
 * What the assistants list does besides editing: duplicate, export (the host's save dialog
 * or a download, as a chat's export), import a file, delete. Each says how it went in one
 * line: done in a status, failed in an alert.
 */
import { useCallback, useState } from 'react'
import type { Assistant } from '../../../../src-preload/contract/assistants'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { assistantsKey, putAssistant, type AssistantList } from './assistant-queries'

export type Notice = { kind: 'done' | 'error'; text: string } | null

const why = (e: unknown): string => (e instanceof Error ? e.message : String(e))

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

export function useAssistantActions() {
  const { bridge, client, platform } = usePlatform()
  const [notice, setNotice] = useState<Notice>(null)
  const done = (text: string): void => setNotice({ kind: 'done', text })
  const failed = (text: string): void => setNotice({ kind: 'error', text })

  const duplicate = useCallback(
    async (a: Assistant): Promise<void> => {
      setNotice(null)
      try {
        const copy = await call(bridge, 'assistants.duplicate', { id: a.id })
        putAssistant(client, copy)
        done(`Duplicated ${a.name} as ${copy.name}.`)
      } catch (e) {
        failed(`Could not duplicate ${a.name}: ${why(e)}`)
      }
    },
    [bridge, client],
  )

  const exportFile = useCallback(
    async (a: Assistant): Promise<void> => {
      setNotice(null)
      try {
        const f = await call(bridge, 'assistants.export', { id: a.id })
        const where = await platform.saveFile(f.filename, f.mimeType, f.content)
        done(where ? `Exported ${a.name} to ${where}.` : `Exported ${a.name} as ${f.filename}.`)
      } catch (e) {
        failed(`Could not export ${a.name}: ${why(e)}`)
      }
    },
    [bridge, platform],
  )

  const importFile = useCallback(
    async (file: File): Promise<void> => {
      setNotice(null)
      if (file.size === 0) return failed(`Could not import ${file.name}: the file is empty.`)
      if (file.size > MAX_IMPORT * 4)
        return failed(`Could not import ${file.name}: the file is too large to be an assistant.`)
      try {
        const text = await readText(file)
        if (text.length > MAX_IMPORT)
          return failed(`Could not import ${file.name}: the file is too large to be an assistant.`)
        const r = await call(bridge, 'assistants.import', { text })
        putAssistant(client, r.assistant)
        done(
          r.renamedFrom
            ? `Imported ${r.assistant.name} (an assistant named ${r.renamedFrom} already exists).`
            : `Imported ${r.assistant.name}.`,
        )
      } catch (e) {
        failed(`Could not import ${file.name}: ${why(e)}`)
      }
    },
    [bridge, client],
  )

  const remove = useCallback(
    async (a: Assistant): Promise<void> => {
      setNotice(null)
      try {
        await call(bridge, 'assistants.delete', { id: a.id })
        client.setQueryData<AssistantList>(assistantsKey, (old) =>
          old ? { ...old, assistants: old.assistants.filter((x) => x.id !== a.id) } : old,
        )
        void client.invalidateQueries({ queryKey: assistantsKey })
        done(`Deleted ${a.name}.`)
      } catch (e) {
        failed(`Could not delete ${a.name}: ${why(e)}`)
      }
    },
    [bridge, client],
  )

  return { notice, setNotice, duplicate, exportFile, importFile, remove }
}
