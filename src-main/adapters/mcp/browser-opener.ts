/**
 * Opens an address in the user's browser: the `BROWSER` environment variable when set (a
 * list of commands separated by ":", each run with the address, or with it in place of
 * "%s"), else the system's default (`open`, `xdg-open`, `start`). The launcher is
 * injectable for tests.
 */
import { spawn } from 'node:child_process'

export type Launcher = (command: string, args: string[]) => Promise<void>

export const spawnLauncher: Launcher = (command, args) =>
  new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: 'ignore', detached: true })
    child.once('error', reject)
    child.once('spawn', () => {
      child.unref()
      resolve()
    })
  })

/** the command lines to try, in order */
export function browserCommands(
  url: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): [string, string[]][] {
  const browser = env['BROWSER']?.trim()
  if (browser) {
    return browser
      .split(':')
      .map((c) => c.trim())
      .filter(Boolean)
      .map((c): [string, string[]] => {
        // a command line split on spaces (as BROWSER is usually set): "firefox --new-tab"
        const parts = c.split(/\s+/)
        const withUrl = parts.some((p) => p.includes('%s'))
          ? parts.map((p) => p.replaceAll('%s', url))
          : [...parts, url]
        return [withUrl[0] as string, withUrl.slice(1)]
      })
  }
  if (platform === 'darwin') return [['open', [url]]]
  if (platform === 'win32') return [['cmd', ['/c', 'start', '""', url.replace(/&/g, '^&')]]]
  return [['xdg-open', [url]]]
}

/** Opens `url`; throws (saying which commands were tried) when none could be started. */
export async function openInBrowser(
  url: string,
  opts: { env?: NodeJS.ProcessEnv; launcher?: Launcher } = {},
): Promise<void> {
  const launcher = opts.launcher ?? spawnLauncher
  const tried: string[] = []
  for (const [command, args] of browserCommands(url, opts.env)) {
    try {
      await launcher(command, args)
      return
    } catch (e) {
      tried.push(`${command} (${(e as Error).message})`)
    }
  }
  throw new Error(`Could not open a browser: tried ${tried.join(', ')}. Open the address yourself.`)
}
