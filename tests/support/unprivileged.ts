/**
 * Tests that run Cairn's code as another user (root's tests of what an unprivileged user
 * meets) load it from the checkout with tsx: that user must be able to read the checkout and
 * its node_modules. A checkout inside a folder only its owner may enter (a fresh clone in a
 * `mktemp -d` folder, mode 700) is out of its reach; such a test is skipped then, saying why.
 */
import { spawnSync } from 'node:child_process'
import path from 'node:path'

/** the user the tests run as when they need one that is not root */
export const NOBODY = { uid: 65534, gid: 65534 }

/**
 * Why `user` cannot run the checkout's code with tsx (null when it can): whether it reads
 * tsx's own files and the source from here, as it would.
 */
export function checkoutUnreachable(user = NOBODY): string | null {
  const files = [path.resolve('node_modules/tsx/package.json'), path.resolve('package.json')]
  const run = spawnSync(
    process.execPath,
    [
      '-e',
      `for (const f of ${JSON.stringify(files)}) require('node:fs').accessSync(f, require('node:fs').constants.R_OK)`,
    ],
    { cwd: '/', ...user, stdio: 'ignore' },
  )
  if (run.status === 0) return null
  return `user ${user.uid} cannot read the checkout at ${process.cwd()} (it lies in a folder closed to other users), so it cannot run Cairn's code from it`
}
