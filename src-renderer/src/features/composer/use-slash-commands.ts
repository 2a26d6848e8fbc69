/**
 * The composer's commands: `/new`, `/stop`, `/help`, `/compact`, `/model <name>`. Each
 * empties the box (an unknown one leaves it as typed) and says what came of it.
 */
import { useLive, usePlatform } from '../../state/context'
import type { Command } from './commands'
import { compactNow } from './compact-now'
import type { Feedback } from './ComposerFeedback'

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

  return async (cmd, typed) => {
    setDraft('')
    switch (cmd.kind) {
      case 'new':
        open(null)
        return say(null)
      case 'stop':
        await stop()
        return say({ kind: 'info', text: running ? 'Stopped.' : 'Nothing is running.' })
      case 'help':
        return say({ kind: 'help' })
      case 'compact':
        if (running) return say({ kind: 'info', text: 'Wait for the answer to finish.' })
        say({ kind: 'info', text: 'Summarizing the earlier conversation…' })
        return say(await compactNow(bridge, client, currentId))
      case 'model': {
        if (!cmd.name) {
          const list = models.length ? ` Available: ${models.join(', ')}.` : ''
          return say({ kind: 'info', text: `Usage: /model <name>.${list}` })
        }
        const error = await setModel(cmd.name)
        return say(
          error
            ? { kind: 'error', text: `Could not switch the model: ${error}` }
            : { kind: 'info', text: `This chat now uses ${cmd.name}.` },
        )
      }
      case 'unknown':
        setDraft(typed)
        return say({
          kind: 'error',
          text: `There is no command /${cmd.name}. Type /help for the commands.`,
        })
    }
  }
}
