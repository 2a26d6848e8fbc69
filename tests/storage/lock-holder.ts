/**
 * A child process for the lock-file test: another Cairn process that holds a lock of the data
 * directory for a while (as browser mode or the CLI does while it saves the settings).
 * Prints `held` once it holds the lock, lets it go after `ms` milliseconds and exits.
 * Usage: node --import tsx lock-holder.ts <lockPath> <ms>
 */
import { withFileLock } from '../../src-main/adapters/settings/file-lock'

const [lockPath = '', ms = '500'] = process.argv.slice(2)
await withFileLock(lockPath, async () => {
  process.stdout.write('held\n')
  await new Promise((r) => setTimeout(r, Number(ms)))
})
