/**
 * What a chat's row does: open it, rename, pin or unpin, export (saved where the user
 * chooses), and ask to delete it. What fails, and where an export went, is said through
 * `say`.
 */
import { useCallback, useMemo } from 'react'
import type { SessionRecord } from '../../../../src-preload/contract/dto'
import { useT } from '../../i18n'
import { usePlatform } from '../../state/context'
import { useErrorText } from '../../ui/error-text'
import { call, keys } from '../../state/queries'
import type { RowCallbacks } from './SessionRow'

export interface RowOutcomes {
  /** something failed */
  notice(text: string): void
  /** where an export was saved (null: the user chose not to save it) */
  exported(where: string | null): void
  askDelete(s: SessionRecord): void
}

export function useRowCallbacks(say: RowOutcomes): RowCallbacks {
  const env = usePlatform()
  const { bridge, client, platform } = env
  const { notice, exported, askDelete } = say
  const t = useT()
  const errorText = useErrorText()
  const changed = useCallback(
    () => void client.invalidateQueries({ queryKey: keys.sessions }),
    [client],
  )
  return useMemo<RowCallbacks>(
    () => ({
      open: (id) => {
        env.nav.getState().showChat()
        env.live.getState().open(id)
      },
      rename: async (id, title) => {
        await call(bridge, 'sessions.rename', { id, title })
        changed()
      },
      pin: (s) => {
        call(bridge, 'sessions.pin', { id: s.id, pinned: !s.pinned })
          .then(changed)
          .catch((e: unknown) =>
            notice(
              t(s.pinned ? 'sidebar.unpinFailed' : 'sidebar.pinFailed', { error: errorText(e) }),
            ),
          )
      },
      exportAs: (s, format) => {
        call(bridge, 'sessions.export', { id: s.id, format })
          .then((f) => platform.saveFile(f.filename, f.mimeType, f.content, f.files))
          .then((where) => exported(where))
          .catch((e: unknown) =>
            notice(t('sidebar.exportFailed', { error: errorText(e) })),
          )
      },
      askDelete,
    }),
    [env, bridge, platform, changed, notice, exported, askDelete, t, errorText],
  )
}
