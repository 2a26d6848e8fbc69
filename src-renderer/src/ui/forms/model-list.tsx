/** The models a provider lists, for a model field's suggestions and its hint. */
import { useQuery } from '@tanstack/react-query'
import type { JSX } from 'react'
import { usePlatform } from '../../state/context'
import { call, keys } from '../../state/queries'

const plural = (n: number, word: string): string => `${n} ${word}${n === 1 ? '' : 's'}`

/** The models of a provider (null: the default one), named `whose` in what it says. */
export function useModelList(providerId: string | null, whose: string) {
  const { bridge } = usePlatform()
  const models = useQuery({
    queryKey: keys.models(providerId),
    queryFn: () => call(bridge, 'providers.models', providerId ? { providerId } : {}),
    staleTime: 5 * 60_000,
    retry: false,
  })
  const status = models.isPending
    ? `Asking ${whose} for its models…`
    : models.isError
      ? `Could not list the models of ${whose}: ${models.error.message} You can still type a model name.`
      : `${plural(models.data.models.length, 'model')} available.`
  return { models, status, listed: models.isSuccess }
}

/** The suggestions of the inputs whose `list` is `id`. */
export function ModelOptions(props: {
  id: string
  models: readonly string[] | undefined
}): JSX.Element {
  return (
    <datalist id={props.id}>
      {(props.models ?? []).map((m) => (
        <option key={m} value={m} />
      ))}
    </datalist>
  )
}
