/**
 * A child process for the numbering race: waits for the `go` file, then logs `count`
 * LLM calls for one session. Usage: node --import tsx log-worker.ts <dataDir> <session> <count> <name>
 */
import fs from 'node:fs'
import path from 'node:path'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'

const [dir = '', session = '', count = '0', name = ''] = process.argv.slice(2)
const logger = new FileTurnLogger(dir, { onError: (e) => process.stderr.write(`${e.message}\n`) })
fs.writeFileSync(path.join(dir, `ready-${name}`), '')
const go = path.join(dir, 'go')
while (!fs.existsSync(go)) await new Promise((r) => setTimeout(r, 2))
const numbers: number[] = []
for (let i = 0; i < Number(count); i++) {
  const h = await logger.begin(session, {
    baseURL: 'http://x/v1',
    model: 'm',
    body: { model: 'm', messages: [], worker: name, i },
    turnId: `${name}-${i}`,
    round: 1,
    attempt: 1,
  })
  numbers.push(h.number)
  await h.finish({
    content: `${name}-${i}`,
    reasoning: null,
    toolCalls: [],
    finishReason: 'stop',
    usage: null,
    latencyMs: 1,
    timeToFirstTokenMs: null,
    retries: [],
    error: null,
    status: 'complete',
  })
}
process.stdout.write(JSON.stringify(numbers))
