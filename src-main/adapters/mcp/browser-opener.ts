/**
 * Opens an address in the user's browser: the `BROWSER` environment variable when set (a
 * list of commands separated by ":", each run with the address, or with it in place of
 * "%s"), else the system's default (`open`, `xdg-open`, `start`), or the host's own way (the
 * desktop app's shell). Every host opens a server's address through here, so the check comes
 * first everywhere: only http and https, and a login only over https (plain http only to this
 * machine). A server can otherwise make the opener launch a local file or an app's URL handler.
 * The launcher is injectable for tests.
 */
import { spawn } from 'node:child_process'
import { pathToFileURL } from 'node:url'
import { ExpectedError } from '../../core/errors'

/** what an address is for: a login (OAuth authorization) or a page a server asks to show */
export type OpenPurpose = 'login' | 'page'

/** An address Cairn will not open; the message says why. */
export class AddressRefused extends ExpectedError<'forbidden'> {
  constructor(message: string) {
    super('forbidden', message)
  }
}

const LOOPBACK_HOST = /^(localhost|127(\.\d{1,3}){3}|\[::1\])$/i

/** the address as shown in a refusal: printable ASCII on one line, at most 200 characters */
function shown(url: URL | null, raw: string): string {
  const line = (url?.href ?? raw).replace(/[^\x20-\x7e]/g, '?')
  return line.length > 200 ? `${line.slice(0, 200)}…` : line
}

/** Why `url` may not be opened for `purpose`, or null when it may. */
export function browserAddressProblem(url: string, purpose: OpenPurpose): string | null {
  const u = URL.parse(url)
  if (!u || (u.protocol !== 'http:' && u.protocol !== 'https:'))
    return `Cairn did not open ${shown(u, url)}: it opens only http and https addresses in your browser.`
  if (purpose === 'login' && u.protocol === 'http:' && !LOOPBACK_HOST.test(u.hostname))
    return `Cairn did not open ${shown(u, url)}: a login is opened only over https (plain http only on this machine), and ${u.host} is another machine.`
  return null
}

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

export interface OpenOptions {
  purpose: OpenPurpose
  env?: NodeJS.ProcessEnv
  launcher?: Launcher
  /** asked once the address passed the check, before anything opens (the desktop app's dialog) */
  confirm?: (url: string) => Promise<boolean>
  /** the host's own way to open an address (the desktop app's shell), instead of a command */
  open?: (url: string) => Promise<void>
}

/**
 * Opens a page Cairn wrote itself (an absolute path) with the same commands; no server's
 * address, so no check but that. Throws like `openInBrowser` when no command starts.
 */
export async function openOwnPage(
  file: string,
  opts: { env?: NodeJS.ProcessEnv; launcher?: Launcher } = {},
): Promise<void> {
  await launchFirst(pathToFileURL(file).href, opts.env, opts.launcher ?? spawnLauncher)
}

async function launchFirst(
  url: string,
  env: NodeJS.ProcessEnv | undefined,
  launcher: Launcher,
): Promise<void> {
  const tried: string[] = []
  for (const [command, args] of browserCommands(url, env)) {
    try {
      await launcher(command, args)
      return
    } catch (e) {
      tried.push(`${command} (${(e as Error).message})`)
    }
  }
  throw new Error(`Could not open a browser: tried ${tried.join(', ')}. Open the address yourself.`)
}

/**
 * Opens `url` and answers true, or false when `confirm` said no. Throws `AddressRefused` for
 * an address that may not be opened (nothing runs), and an error saying which commands were
 * tried when none could be started.
 */
export async function openInBrowser(url: string, opts: OpenOptions): Promise<boolean> {
  const problem = browserAddressProblem(url, opts.purpose)
  if (problem) throw new AddressRefused(problem)
  if (opts.confirm && !(await opts.confirm(url))) return false
  if (opts.open) {
    await opts.open(url)
    return true
  }
  await launchFirst(url, opts.env, opts.launcher ?? spawnLauncher)
  return true
}
