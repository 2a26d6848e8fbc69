/**
 * Saving settings: one `settings.update` per save (all of a form or nothing), the answer
 * put in the query cache, and the save's state for the form's status line.
 */
import { useQuery } from '@tanstack/react-query'
import { useCallback, useState } from 'react'
import type { SettingsView } from '../../../../src-preload/contract/app-dto'
import type { RouteInput } from '../../../../src-preload/contract/routes'
import { usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'

/**
 * The settings, read again whenever a section opens: rules and policies also change
 * elsewhere (an "Always allow" in the chat, the command line, another window).
 */
export function useFreshSettings() {
  const { bridge } = usePlatform()
  return useQuery({
    queryKey: keys.settings,
    queryFn: () => call(bridge, 'settings.get', {}),
    refetchOnMount: 'always',
  })
}

export type SettingsPatch = RouteInput<'settings.update'>

export interface SaveState {
  state: 'idle' | 'saving' | 'saved' | 'error'
  /** the host's words when the save failed */
  error: string | null
}

export interface SettingsSaver extends SaveState {
  /** resolves to the saved settings, or null when the save failed (the error is kept) */
  save(patch: SettingsPatch): Promise<SettingsView | null>
  /** forgets "Saved" / the error (after the user edits the form again) */
  reset(): void
}

export function useSaveSettings(): SettingsSaver {
  const { bridge, client } = usePlatform()
  const [s, setS] = useState<SaveState>({ state: 'idle', error: null })
  const save = useCallback(
    async (patch: SettingsPatch): Promise<SettingsView | null> => {
      setS({ state: 'saving', error: null })
      try {
        const view = await call(bridge, 'settings.update', patch)
        client.setQueryData(keys.settings, view)
        void client.invalidateQueries({ queryKey: ['models'] })
        setS({ state: 'saved', error: null })
        return view
      } catch (e) {
        setS({ state: 'error', error: e instanceof Error ? e.message : String(e) })
        return null
      }
    },
    [bridge, client],
  )
  const reset = useCallback(() => setS({ state: 'idle', error: null }), [])
  return { ...s, save, reset }
}
