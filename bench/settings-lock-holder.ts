/**
 * Another Cairn process for `npm run bench:settings`: takes the settings lock of argv[2]
 * for 40 ms every 80 ms until killed, the way a CLI saving its settings in a loop would.
 */
import { withFileLockSync } from '../src-main/adapters/settings/file-lock'

const lockPath = process.argv[2]!
const sleeper = new Int32Array(new SharedArrayBuffer(4))
process.stdout.write('holding\n')
for (;;) {
  withFileLockSync(lockPath, () => Atomics.wait(sleeper, 0, 0, 40), { timeoutMs: 60_000 })
  Atomics.wait(sleeper, 0, 0, 40)
}
