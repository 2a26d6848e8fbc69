/**
 * How `npm run web` opens the browser without a secret on a command line (any user of the
 * machine can read those in the process list): it writes a small page into the data
 * directory (mode 600, in a folder of mode 700), which sends the browser on to the app with a
 * one-time code, and hands the opener that page's path. The code is exchanged once for the
 * session cookie; once it is used or has expired (two minutes), the page is removed.
 */
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomicSync } from '../adapters/atomic-file'
import { openOwnPage } from '../adapters/mcp/browser-opener'
import type { WebServer } from './server'

export const OPEN_PAGE = 'web-open.html'
const CODE_TTL_MS = 2 * 60_000

function pageFor(url: string): string {
  return `<!doctype html><meta charset="utf-8"><meta http-equiv="refresh" content="0;url=${url}"><title>Cairn</title>
<p>Opening Cairn… If nothing happens, <a href="${url}">open Cairn</a>.</p>
`
}

/** Opens the browser at `server`; a browser that cannot be started is not an error. */
export async function openBrowserAt(
  server: Pick<WebServer, 'oneTimeUrl'>,
  dataDir: string,
  env: NodeJS.ProcessEnv,
): Promise<void> {
  const file = path.join(dataDir, OPEN_PAGE)
  // the code is base64url: nothing in the address needs escaping in the page
  const url = server.oneTimeUrl(CODE_TTL_MS, () => fs.rmSync(file, { force: true }))
  writeFileAtomicSync(file, pageFor(url))
  await openOwnPage(file, { env }).catch(() => {
    // no browser to open: the printed address is enough
  })
}
