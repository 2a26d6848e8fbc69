/**
 * Imports started in the window (Settings › General › "Import chats…"): the runs of this
 * engine kept up to date from `imports.progress` events; starting one from a file the
 * platform offered.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { ImportRun } from '../../../src-preload/contract/dto'
import type { ImportFile } from '../../../src-preload/contract/routes'
import { usePlatform } from './context'
import { call } from './queries'

export const importsKey = ['imports'] as const

/** the imports of this run, newest last, updated as their events come */
export function useImportRuns() {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  useEffect(() => {
    const on = (run: ImportRun): void => {
      client.setQueryData<{ imports: ImportRun[] }>(importsKey, (old) => ({
        imports: [...(old?.imports ?? []).filter((r) => r.importId !== run.importId), run],
      }))
    }
    bridge.on('imports.progress', on)
    return () => bridge.off('imports.progress', on)
  }, [bridge, client])
  return useQuery({
    queryKey: importsKey,
    queryFn: () => call(bridge, 'imports.list', {}),
    staleTime: Infinity,
  })
}

/** starts importing an offered file */
export function useStartImport(): (file: ImportFile) => Promise<ImportRun> {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  return async (file) => {
    const run = await call(bridge, 'imports.start', { fileId: file.fileId })
    client.setQueryData<{ imports: ImportRun[] }>(importsKey, (old) => ({
      imports: [...(old?.imports ?? []).filter((r) => r.importId !== run.importId), run],
    }))
    return run
  }
}
