/**
 * What saving the first provider changes in the settings: the provider (added, or put in
 * place of one with the same id), made active with its model, and its key when given.
 */
import type { ProviderView } from '../../../../src-preload/contract/app-dto'
import type { RouteInput } from '../../../../src-preload/contract/routes'

export interface NewProvider {
  id: string
  name: string
  baseURL: string
  model: string
  apiKey?: string
}

/** A provider id from a name: lower case letters, digits and dashes ("LM Studio" → "lm-studio"). */
export function providerId(name: string): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .slice(0, 60)
  return slug || 'local'
}

/** A name for an endpoint known only by its address: its host ("127.0.0.1:1234"). */
export function endpointName(baseURL: string): string {
  try {
    return new URL(baseURL).host || baseURL
  } catch {
    return baseURL
  }
}

export function providerPatch(
  existing: readonly ProviderView[],
  p: NewProvider,
): RouteInput<'settings.update'> {
  // what settings.get shows back (the masked key) is not part of a provider's settings
  const kept = existing.filter((x) => x.id !== p.id).map(({ apiKey: _masked, ...rest }) => rest)
  return {
    providers: [...kept, { id: p.id, name: p.name, baseURL: p.baseURL, defaultModel: p.model }],
    activeProviderId: p.id,
    activeModel: p.model,
    ...(p.apiKey ? { apiKeys: { [p.id]: p.apiKey } } : {}),
  }
}

/** Problems with the base URL field, or null when it is usable. */
export function baseUrlProblem(value: string): string | null {
  const v = value.trim()
  if (!v) return 'Enter the server’s base URL, e.g. http://127.0.0.1:8080/v1.'
  let url: URL
  try {
    url = new URL(v)
  } catch {
    return 'This is not an address: it should look like http://127.0.0.1:8080/v1.'
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:')
    return 'The address must start with http:// or https://.'
  return null
}

export const FIRST_PROMPT = 'What can you do, and which tools do you have?'
