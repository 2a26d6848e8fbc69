/**
 * The LLM calls of one turn, from the session's turn logs (`logs.turns`): each logged
 * pair is one call; the request file names its turn.
 */
import type { TurnLogItem } from '../../../../../src-preload/contract/app-dto'
import type { RouteInput, RouteOutputs } from '../../../../../src-preload/contract/routes'

/** `logs.turns` for the session (the caller sends it through the bridge) */
export type FetchLogs = (
  page: Omit<RouteInput<'logs.turns'>, 'sessionId'>,
) => Promise<RouteOutputs['logs.turns']>

export interface CallView {
  number: number
  round: number | null
  attempt: number | null
  startedAt: string | null
  model: string | null
  baseURL: string | null
  latencyMs: number | null
  timeToFirstTokenMs: number | null
  retries: { attempt: number; reason: string; delayMs: number }[]
  usage: { inputTokens: number; outputTokens: number; estimated: boolean } | null
  status: string | null
  error: { code: string; message: string } | null
  /** the exact body sent */
  body: unknown
  request: Record<string, unknown> | null
  response: Record<string, unknown> | null
  /** the tools the request carried, of how many connected (find_tools: a search stood in for the rest) */
  tools: { offered: string[]; total: number | null; catalog: boolean } | null
}

const obj = (v: unknown): Record<string, unknown> | null =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Record<string, unknown>) : null
const str = (v: unknown): string | null => (typeof v === 'string' ? v : null)
const num = (v: unknown): number | null => (typeof v === 'number' ? v : null)

export function callView(item: TurnLogItem): CallView {
  const req = obj(item.request)
  const res = obj(item.response)
  const usage = obj(res?.['usage'])
  const error = obj(res?.['error'])
  return {
    number: item.number,
    round: num(req?.['round'] ?? res?.['round']),
    attempt: num(req?.['attempt'] ?? res?.['attempt']),
    startedAt: str(req?.['timestamp']),
    model: str(req?.['model']),
    baseURL: str(req?.['baseURL']),
    latencyMs: num(res?.['latencyMs']),
    timeToFirstTokenMs: num(res?.['timeToFirstTokenMs']),
    retries: Array.isArray(res?.['retries'])
      ? (res['retries'] as unknown[]).flatMap((r) => {
          const o = obj(r)
          return o
            ? [
                {
                  attempt: num(o['attempt']) ?? 0,
                  reason: str(o['reason']) ?? '',
                  delayMs: num(o['delayMs']) ?? 0,
                },
              ]
            : []
        })
      : [],
    usage: usage
      ? {
          inputTokens: num(usage['inputTokens']) ?? 0,
          outputTokens: num(usage['outputTokens']) ?? 0,
          estimated: usage['estimated'] === true,
        }
      : null,
    status: str(res?.['status']),
    error: error ? { code: str(error['code']) ?? '', message: str(error['message']) ?? '' } : null,
    body: req?.['body'] ?? null,
    request: req,
    response: res,
    tools: toolsOf(req),
  }
}

function toolsOf(req: Record<string, unknown> | null): CallView['tools'] {
  const logged = obj(obj(req?.['diagnostics'])?.['tools'])
  const sent = obj(req?.['body'])?.['tools']
  const names = Array.isArray(logged?.['offered'])
    ? logged['offered'].filter((n): n is string => typeof n === 'string')
    : Array.isArray(sent)
      ? sent.flatMap((t) => str(obj(obj(t)?.['function'])?.['name']) ?? [])
      : null
  if (!names) return null
  return { offered: names, total: num(logged?.['total']), catalog: logged?.['catalog'] === true }
}

const PAGE = 200

const turnOf = (i: TurnLogItem | undefined): unknown =>
  i ? (obj(i.request)?.['turnId'] ?? obj(i.response)?.['turnId']) : undefined

/**
 * The calls of `turnId`, oldest first. The logs are read from the newest backwards (the
 * turn inspected is usually recent) until a page starts before the turn's first call.
 */
export async function loadTurnCalls(fetchLogs: FetchLogs, turnId: string): Promise<CallView[]> {
  const { total } = await fetchLogs({ limit: 1 })
  const found: TurnLogItem[] = []
  for (let end = total; end > 0; end -= PAGE) {
    const offset = Math.max(0, end - PAGE)
    const page = await fetchLogs({ offset, limit: end - offset })
    const mine = page.items.filter((i) => turnOf(i) === turnId)
    found.unshift(...mine)
    // the turn's calls are together: once found, a page that starts elsewhere is enough
    if (found.length > 0 && turnOf(page.items[0]) !== turnId) break
  }
  return found.map(callView)
}
