/** `npm run bench:cli`: only the start-up times of the `cairn` command (see cli-start.ts). */
import { benchCliStart, printCliStart } from './cli-start'

console.log('Starting the cairn command (out/cli, a new process each run)')
printCliStart(benchCliStart(), (ok) => (ok ? 'PASS' : 'MISS'))
