/**
 * "Copy as curl": a logged request as a command that sends it again. The key is never in
 * it (the logs are redacted anyway): the command reads it from `$CAIRN_API_KEY`.
 */

/** One shell word in single quotes: nothing inside is special except `'` itself. */
export function shellQuote(s: string): string {
  return `'${s.replace(/'/g, `'\\''`)}'`
}

/**
 * `baseURL` is an OpenAI-compatible base URL, or for a call through Ollama's native API the
 * whole endpoint (`…/api/chat`), as the turn log records them.
 */
export function buildCurl(baseURL: string, body: unknown): string {
  const base = baseURL.replace(/\/+$/, '')
  const url = base.endsWith('/api/chat') ? base : `${base}/chat/completions`
  return [
    `curl ${shellQuote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H "Authorization: Bearer $CAIRN_API_KEY"`,
    // the answer streams: print it as it comes
    `  --no-buffer`,
    `  --data-raw ${shellQuote(JSON.stringify(body, null, 2))}`,
  ].join(' \\\n')
}
