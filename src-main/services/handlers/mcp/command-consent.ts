/**
 * The MCP spec's consent rule: a command runs on this computer only after the user saw its
 * complete command line and allowed it. Asked when a stdio server is about to run a command
 * it did not run before (enabled, or enabled with a changed configuration).
 */
import type { McpServerConfig } from '../../../core/mcp-ports'
import { ExpectedError } from '../../../core/errors'
import type { HandlerContext } from '../handler-context'

/**
 * Resolves when `next` may run: it runs no command, is disabled, runs what `before` ran,
 * or the user allowed it (the desktop app's dialog, or the fingerprint `confirmed` of the
 * command line the page showed). Otherwise throws `forbidden`, saying what to do.
 */
export async function allowCommand(
  c: Pick<HandlerContext, 'mcpConfigs' | 'confirmCommand'>,
  name: string,
  before: unknown,
  next: McpServerConfig,
  confirmed: string | undefined,
): Promise<void> {
  const configs = c.mcpConfigs
  const line = configs.commandLine(next)
  if (!line || next.disabled === true) return
  let prev: McpServerConfig | null = null
  try {
    prev = configs.parse(name, before)
  } catch {
    prev = null
  }
  if (prev && prev.disabled !== true && configs.fingerprint(prev) === line.fingerprint) return
  if (c.confirmCommand) {
    // the desktop app: the main process asks; whatever the renderer sent does not count
    const allowed = await c.confirmCommand({
      server: name,
      command: line.command,
      args: line.args,
      envNames: line.envNames,
      cwd: line.cwd,
    })
    if (!allowed)
      throw new ExpectedError(
        'forbidden',
        `"${name}" was not started: its command was not allowed.`,
      )
    return
  }
  if (confirmed === undefined)
    throw new ExpectedError(
      'forbidden',
      `Starting "${name}" runs a command on this computer: confirm its full command line first.`,
    )
  if (confirmed !== line.fingerprint)
    throw new ExpectedError(
      'forbidden',
      `The command line of "${name}" is not the one that was confirmed (it has changed): review it again.`,
    )
}
