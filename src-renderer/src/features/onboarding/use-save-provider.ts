/** Saves the first provider through settings.update, then refreshes what depends on it. */
import { useMutation } from '@tanstack/react-query'
import { usePlatform } from '../../state/context'
import { call } from '../../state/queries'
import { providerPatch, type NewProvider } from './provider-patch'
import { providerChanged } from '../../state/provider-queries'

export function useSaveProvider(onSaved: (p: NewProvider) => void) {
  const { bridge, client } = usePlatform()
  return useMutation({
    mutationFn: async (p: NewProvider) => {
      const settings = await call(bridge, 'settings.get', {})
      await call(bridge, 'settings.update', providerPatch(settings.providers, p))
      return p
    },
    onSuccess: async (p) => {
      onSaved(p)
      await providerChanged(client)
    },
  })
}
