/**
 * Run by signals.test.ts in its own process: loads what the CLI and browser mode load
 * (the services on a data directory, turns, MCP, the web server), says how many SIGINT
 * and SIGTERM listeners that left, then stops the way the hosts do on a signal.
 */
import { openAppServices } from '../../src-main/services/host/app-services'
import { handleStopSignals } from '../../src-main/services/host/signals'

const dataDir = process.argv[2] ?? ''
const app = openAppServices(dataDir)
await app.settings.update((s) => {
  s.activeModel = 'signals'
})
await import('../../src-main/services/host/app-host')
await import('../../src-main/services/tools/tool-runtime')
await import('../../src-main/services/turns/turn-service')
await import('../../src-main/web/server')
const count = () => process.listenerCount('SIGINT') + process.listenerCount('SIGTERM')
const before = count()

const release = handleStopSignals({ SIGINT: () => {}, SIGTERM: () => {} })
const installed = count()
release()
const released = count()

handleStopSignals({
  SIGINT: () => stop('SIGINT', 130),
  SIGTERM: () => stop('SIGTERM', 143),
})
function stop(signal: string, code: number): void {
  app.close()
  process.stdout.write(`stopping on ${signal}\n`, () => process.exit(code))
}
process.stdout.write(`${JSON.stringify({ before, installed, released })}\n`)
// stays alive until a signal comes
setInterval(() => {}, 1 << 30)
