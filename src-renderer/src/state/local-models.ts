/**
 * The local models (Settings › Models, the first run's offer): the models listed, the
 * downloads of this run kept up to date from `models.download` events, and starting one.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { useEffect } from 'react'
import type { ModelDownload } from '../../../src-preload/contract/local-models'
import type { RouteInput } from '../../../src-preload/contract/routes'
import { usePlatform } from './context'
import { statusKey } from './provider-queries'
import { call } from './queries'

export const localModelsKey = ['local-models'] as const
export const downloadsKey = ['local-models', 'downloads'] as const

export function useLocalModels() {
  const { bridge } = usePlatform()
  return useQuery({ queryKey: localModelsKey, queryFn: () => call(bridge, 'models.list', {}) })
}

/** This run's downloads, updated as their events come; a finished one refreshes the models. */
export function useModelDownloads() {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  useEffect(() => {
    const on = (d: ModelDownload): void => {
      client.setQueryData<{ downloads: ModelDownload[] }>(downloadsKey, (old) => {
        const rest = (old?.downloads ?? []).filter((x) => x.id !== d.id)
        return { downloads: [...rest, d] }
      })
      if (d.state === 'done') {
        void client.invalidateQueries({ queryKey: localModelsKey, exact: true })
        void client.invalidateQueries({ queryKey: statusKey })
        void client.invalidateQueries({ queryKey: ['models'] })
      }
    }
    bridge.on('models.download', on)
    return () => bridge.off('models.download', on)
  }, [bridge, client])
  return useQuery({ queryKey: downloadsKey, queryFn: () => call(bridge, 'models.downloads', {}) })
}

/** Starts (or resumes) a download; what is wrong before it starts is thrown. */
export function usePull(): (input: RouteInput<'models.pull'>) => Promise<ModelDownload> {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  return async (input) => {
    const { download } = await call(bridge, 'models.pull', input)
    client.setQueryData<{ downloads: ModelDownload[] }>(downloadsKey, (old) => ({
      downloads: [...(old?.downloads ?? []).filter((x) => x.id !== download.id), download],
    }))
    return download
  }
}

/** A byte count as people read it: `512 MB`, `1.8 GB`. */
export function bytes(n: number): string {
  if (n >= 1024 ** 3) return `${(n / 1024 ** 3).toFixed(1)} GB`
  if (n >= 1024 ** 2) return `${Math.round(n / 1024 ** 2)} MB`
  return `${Math.max(1, Math.round(n / 1024))} KB`
}
