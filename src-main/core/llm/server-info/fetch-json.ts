/**
 * One request to a server's model-info endpoint: a short timeout, and the answer checked
 * against a zod schema before anything reads it. A server that is down, answers an error
 * or answers something else fails with a `ServerInfoError` that says which.
 */
import type { z } from 'zod'
import type { Fetch } from '../../ports'
import { ExpectedError } from '../../errors'

export class ServerInfoError extends ExpectedError<'bad_response' | 'network'> {
  constructor(
    message: string,
    /** the server answered (an HTTP error or an unexpected body), as opposed to no answer */
    readonly answered: boolean,
  ) {
    super(answered ? 'bad_response' : 'network', message)
    this.name = 'ServerInfoError'
  }
}

export interface InfoFetchOptions {
  fetch: Fetch
  signal?: AbortSignal
  /** default 3 s */
  timeoutMs?: number
  headers?: Record<string, string>
}

const DEFAULT_TIMEOUT_MS = 3_000
/** model lists of large providers are big; anything past this is not a model list */
const MAX_BODY_CHARS = 20_000_000

export async function fetchJson<S extends z.ZodType>(
  url: string,
  schema: S,
  opts: InfoFetchOptions & { body?: unknown },
): Promise<z.infer<S>> {
  const timeout = AbortSignal.timeout(opts.timeoutMs ?? DEFAULT_TIMEOUT_MS)
  const signal = opts.signal ? AbortSignal.any([opts.signal, timeout]) : timeout
  let res: Response
  try {
    res = await opts.fetch(url, {
      method: opts.body === undefined ? 'GET' : 'POST',
      headers: {
        accept: 'application/json',
        ...(opts.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...opts.headers,
      },
      ...(opts.body === undefined ? {} : { body: JSON.stringify(opts.body) }),
      signal,
    })
  } catch (err) {
    const why = timeout.aborted ? 'no answer in time' : (err as Error).message
    throw new ServerInfoError(`${url}: ${why}`, false)
  }
  let text: string
  try {
    text = await res.text()
  } catch (err) {
    throw new ServerInfoError(`${url}: the answer broke off (${(err as Error).message})`, false)
  }
  if (!res.ok) {
    const first = text.split('\n', 1)[0]!.slice(0, 200)
    throw new ServerInfoError(
      `${url} answered HTTP ${res.status}${first ? `: ${first}` : ''}`,
      true,
    )
  }
  if (text.length > MAX_BODY_CHARS) {
    throw new ServerInfoError(`${url} answered ${text.length} characters; not read`, true)
  }
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch {
    throw new ServerInfoError(`${url} did not answer JSON: ${text.slice(0, 80)}`, true)
  }
  const parsed = schema.safeParse(json)
  if (!parsed.success) {
    const issue = parsed.error.issues[0]
    const where = issue?.path.length ? issue.path.join('.') : 'the answer'
    throw new ServerInfoError(
      `${url} answered in a shape Cairn does not understand (${where}: ${issue?.message ?? 'invalid'})`,
      true,
    )
  }
  return parsed.data
}

/** The server's root: the base URL without its OpenAI path (`…/v1`). */
export function serverRoot(baseURL: string): string {
  return baseURL.replace(/\/+$/, '').replace(/\/v1$/, '')
}
