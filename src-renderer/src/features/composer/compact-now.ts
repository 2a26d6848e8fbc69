/** `/compact`: summarize the earlier conversation of this chat now, and say what came of it. */
import type { QueryClient } from '@tanstack/react-query'
import type { CairnBridge } from '../../../../src-preload/contract/bridge'
import type { TFunction } from '../../i18n'
import { call, keys } from '../../state/queries'

export async function compactNow(
  bridge: CairnBridge,
  client: QueryClient,
  sessionId: string | null,
  t: TFunction,
  errorText: (e: unknown) => string,
): Promise<{ kind: 'info' | 'error'; text: string }> {
  if (!sessionId) return { kind: 'info', text: t('composer.said.nothingNew') }
  try {
    const r = await call(bridge, 'sessions.compact', { id: sessionId })
    await client.invalidateQueries({ queryKey: keys.conversation(sessionId) })
    if (!r.compacted) {
      return {
        kind: 'info',
        text: t('composer.said.nothingToSummarize'),
      }
    }
    return r.fallback
      ? {
          kind: 'error',
          text: t('composer.said.fallback'),
        }
      : {
          kind: 'info',
          text: t('composer.said.summarized', { before: r.tokensBefore, after: r.tokensAfter }),
        }
  } catch (e) {
    return {
      kind: 'error',
      text: t('composer.said.summarizeFailed', { error: errorText(e) }),
    }
  }
}
