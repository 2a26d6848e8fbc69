/**
 * The built-in provider `local`: Cairn's own runtime running a GGUF model from the data
 * directory. It is chosen by name (`--provider local`, the settings' active provider, an
 * assistant's provider), or by default when no other provider is configured and a local
 * model exists. Its address is the runtime's, found when a turn starts it; sessions and
 * turn logs name it `local`, whatever port it had.
 */
import type { TurnDeps } from '../../core/agent/turn-state'
import type { LocalModelStore } from '../../core/service-ports'
import { ExpectedError } from '../../core/errors'
import { LlmError } from '../../core/llm/types'
import type { ProviderChoice } from './provider'
import { runtimeDiedError, type LocalRuntime } from './local-runtime'

export const LOCAL_PROVIDER_ID = 'local'
export const LOCAL_PROVIDER_NAME = 'Local models'

/** What a session and the turn logs call a provider: `local`, or the endpoint's base URL. */
export function providerKey(p: Pick<ProviderChoice, 'baseURL' | 'local'>): string {
  return p.local ? LOCAL_PROVIDER_ID : p.baseURL
}

/** No local model to run (`no_model`), or a host that cannot run one (`unavailable`). */
export class LocalProviderError extends ExpectedError<'no_model' | 'unavailable'> {
  constructor(message: string, code: 'no_model' | 'unavailable') {
    super(code, message)
    this.name = 'LocalProviderError'
  }
}

/** The help said when `local` is chosen and no model has been added. */
export const NO_LOCAL_MODEL =
  'No local model has been added yet. Add a GGUF file with `cairn models add <file.gguf>`, ' +
  'download one with `cairn models pull <repository>`, or use Settings › Models.'

/**
 * The `local` provider, its runtime started: with `model` (the one asked for), else the first
 * model added. A model that is not there is said before the runtime starts.
 */
export async function localProviderChoice(
  models: LocalModelStore,
  runtime: LocalRuntime,
  o: { model?: string | undefined; source: ProviderChoice['source'] },
): Promise<ProviderChoice> {
  const list = models.list()
  if (list.length === 0) throw new LocalProviderError(NO_LOCAL_MODEL, 'no_model')
  if (o.model && !list.some((m) => m.name === o.model)) {
    throw new LocalProviderError(
      `There is no local model "${o.model}". The local models are: ${list.map((m) => m.name).join(', ')}.`,
      'no_model',
    )
  }
  if (!runtime.available) {
    throw new LocalProviderError('This host cannot run local models.', 'unavailable')
  }
  const address = await runtime.ensure()
  return {
    baseURL: address.baseURL,
    apiKey: address.apiKey,
    source: o.source,
    label: LOCAL_PROVIDER_NAME,
    model: o.model ?? list[0]?.name ?? '',
    local: { runtime, generation: address.generation },
  }
}

/**
 * The client of a turn on the local runtime: a request that failed because the runtime
 * process died under it says so (and is not retried against the dead port).
 */
export function guardLocalClient(
  client: TurnDeps['llm']['client'],
  local: NonNullable<ProviderChoice['local']>,
): TurnDeps['llm']['client'] {
  const guard = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call()
    } catch (e) {
      // a model too large for the memory: said by the runtime before loading, not worth a retry
      if (e instanceof LlmError && e.status === 507) {
        throw new LlmError('server', e.message, { status: 507, retryable: false, cause: e })
      }
      if (e instanceof LlmError && e.code !== 'network' && e.code !== 'interrupted') throw e
      // the broken connection may be seen before the process's exit: wait a little for it
      if (!(await local.runtime.exited(local.generation, 1_000))) throw e
      throw runtimeDiedError(e, local.runtime.exit())
    }
  }
  const complete = client.complete?.bind(client)
  return {
    buildBody: (req) => client.buildBody(req),
    streamChat: (req, opts) => guard(() => client.streamChat(req, opts)),
    ...(complete
      ? { complete: (...args: Parameters<typeof complete>) => guard(() => complete(...args)) }
      : {}),
  }
}
