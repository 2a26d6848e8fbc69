/** One LLM call of a turn: its timing, retries, usage, request and response. */
import type { JSX } from 'react'
import { useT, type TFunction } from '../../../i18n'
import { useFormat, type Formatters } from '../../../i18n/format'
import { CopyButton } from '../../../ui/CopyButton'
import { buildCurl } from './curl'
import { JsonTree } from './JsonTree'
import type { CallView } from './turn-calls'

const msIn =
  (format: Formatters) =>
  (v: number | null): string =>
    v === null
      ? '—'
      : v < 1000
        ? `${format.number(Math.round(v))} ms`
        : `${format.number(v / 1000, { minimumFractionDigits: 2, maximumFractionDigits: 2 })} s`

function toolsLine(tools: CallView['tools'], t: TFunction): string {
  if (tools === null) return '—'
  if (tools.offered.length === 0) return t('inspector.none_')
  const list = tools.offered.join(', ')
  if (tools.catalog)
    return tools.total !== null
      ? t('inspector.catalog', { offered: tools.offered.length, total: tools.total, list })
      : t('inspector.catalogOther', { offered: tools.offered.length, list })
  return `${tools.offered.length}: ${list}`
}

/** when a call started: a short date and the time with seconds */
const STARTED: Intl.DateTimeFormatOptions = { dateStyle: 'short', timeStyle: 'medium' }

function callTitle(c: CallView, t: TFunction): string {
  let title = t('inspector.call', { n: c.number })
  if (c.round !== null) title += ` · ${t('inspector.round', { n: c.round })}`
  if (c.attempt !== null && c.attempt > 1) title += ` · ${t('inspector.attempt', { n: c.attempt })}`
  return title
}

export function CallDetails(props: { call: CallView; query: string }): JSX.Element {
  const c = props.call
  const t = useT()
  const format = useFormat()
  const ms = msIn(format)
  const title = callTitle(c, t)
  return (
    <section className="inspector-call" aria-label={title}>
      <div className="inspector-call-head">
        <h3>{title}</h3>
        {c.baseURL && c.body !== null ? (
          <CopyButton text={buildCurl(c.baseURL, c.body)} label={t('inspector.copyCurl')} />
        ) : null}
      </div>
      <dl className="inspector-facts">
        <dt>{t('inspector.model')}</dt>
        <dd>{c.model ?? '—'}</dd>
        <dt>{t('inspector.started')}</dt>
        <dd>{c.startedAt ? format.dateTime(new Date(c.startedAt), STARTED) : '—'}</dd>
        <dt>{t('inspector.latency')}</dt>
        <dd>{ms(c.latencyMs)}</dd>
        <dt>{t('inspector.firstToken')}</dt>
        <dd>{ms(c.timeToFirstTokenMs)}</dd>
        <dt>{t('inspector.usage')}</dt>
        <dd>
          {c.usage
            ? t(c.usage.estimated ? 'inspector.usageEstimated' : 'inspector.usageLine', {
                input: format.number(c.usage.inputTokens),
                output: format.number(c.usage.outputTokens),
              })
            : '—'}
        </dd>
        <dt>{t('inspector.status')}</dt>
        <dd>
          {c.status ?? t('inspector.noResponse')}
          {c.error ? ` — ${c.error.message}` : ''}
        </dd>
        <dt>{t('inspector.toolsOffered')}</dt>
        <dd>{toolsLine(c.tools, t)}</dd>
        <dt>{t('inspector.retries')}</dt>
        <dd>
          {c.retries.length === 0 ? (
            t('inspector.none_')
          ) : (
            <ul>
              {c.retries.map((r) => (
                <li key={r.attempt}>
                  {t('inspector.retryLine', {
                    n: r.attempt,
                    reason: r.reason,
                    waited: ms(r.delayMs),
                  })}
                </li>
              ))}
            </ul>
          )}
        </dd>
      </dl>
      <JsonTree label={t('inspector.request')} value={c.request} query={props.query} />
      <JsonTree label={t('inspector.response')} value={c.response} query={props.query} />
    </section>
  )
}
