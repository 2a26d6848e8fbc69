/**
 * Another Cairn process for the lease tests: opens the data directory's database, takes the
 * lease of session argv[3], prints "held", and keeps it until killed.
 */
import { createSessionStore } from '../../src-main/adapters/sqlite/session-store'

const [dataDir, sessionId] = process.argv.slice(2)
const store = createSessionStore(dataDir!)
const got = store.leases.acquire(sessionId!, 'cli')
process.stdout.write(got.ok ? 'held\n' : `busy ${got.holder.pid}\n`)
setInterval(() => {}, 1_000)
