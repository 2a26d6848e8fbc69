/**
 * The composer's commands: `/new`, `/stop`, `/help`, `/compact`, `/model <name>`. Each
 * empties the box (an unknown one leaves it as typed) and says what came of it.
 */
import { useT } from '../../i18n'
import { useLive, usePlatform } from '../../state/context'
import { useErrorText } from '../../ui/error-text'
import type { Command } from './commands'
import { compactNow } from './compact-now'
import type { Feedback } from './ComposerFeedback'

/** how /model is typed: command syntax, the same in every language */
const MODEL_USAGE = '/model <name>'

export function useSlashCommands(
  say: (feedback: Feedback) => void,
  models: readonly string[],
): (cmd: Command, typed: string) => Promise<void> {
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const currentId = useLive((s) => s.currentId)
  const stop = useLive((s) => s.stop)
  const setDraft = useLive((s) => s.setDraft)
  const open = useLive((s) => s.open)
  const setModel = useLive((s) => s.setModel)
  const { bridge, client } = usePlatform()
  const t = useT()
  const errorText = useErrorText()

  return async (cmd, typed) => {
    setDraft('')
    switch (cmd.kind) {
      case 'new':
        open(null)
        return say(null)
      case 'stop':
        await stop()
        return say({
          kind: 'info',
          text: running ? t('composer.said.stopped') : t('composer.said.notRunning'),
        })
      case 'help':
        return say({ kind: 'help' })
      case 'compact':
        if (running) return say({ kind: 'info', text: t('composer.said.wait') })
        say({ kind: 'info', text: t('composer.said.summarizing') })
        return say(await compactNow(bridge, client, currentId, t, errorText))
      case 'model': {
        if (!cmd.name) {
          return say({
            kind: 'info',
            text: models.length
              ? t('composer.said.modelUsageList', { usage: MODEL_USAGE, list: models.join(', ') })
              : t('composer.said.modelUsage', { usage: MODEL_USAGE }),
          })
        }
        const error = await setModel(cmd.name)
        return say(
          error
            ? { kind: 'error', text: t('composer.said.modelFailed', { error }) }
            : { kind: 'info', text: t('composer.said.modelSet', { model: cmd.name }) },
        )
      }
      case 'unknown':
        setDraft(typed)
        return say({
          kind: 'error',
          text: t('composer.said.unknown', { name: cmd.name }),
        })
    }
  }
}
