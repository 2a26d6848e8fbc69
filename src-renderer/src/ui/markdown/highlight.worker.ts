/**
 * The highlight worker: `highlight-core.ts` off the main thread. One request at a time (the
 * page sends the next only after this one's reply), so that the page can time-box a single
 * block and terminate this worker if a grammar runs away on it.
 */
import { prepare, tokenizeLoaded } from './highlight-core'
import { resolveLanguage, withinHighlightLimits } from './languages'
import type { HighlightReply, HighlightRequest } from './highlight-protocol'

const post = (reply: HighlightReply): void => {
  ;(self as unknown as { postMessage(m: HighlightReply): void }).postMessage(reply)
}

self.addEventListener('message', (event: MessageEvent<HighlightRequest>) => {
  void handle(event.data)
})

async function handle({ id, code, lang }: HighlightRequest): Promise<void> {
  try {
    const language = resolveLanguage(lang)
    if (language === null || !withinHighlightLimits(code)) {
      post({ id, kind: 'done', lines: null })
      return
    }
    const highlighter = await prepare(language)
    post({ id, kind: 'started' })
    post({ id, kind: 'done', lines: tokenizeLoaded(highlighter, code, language) })
  } catch (err) {
    post({ id, kind: 'error', message: err instanceof Error ? err.message : String(err) })
  }
}
