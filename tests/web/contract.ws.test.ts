import { join } from 'node:path'
import { startWebServer } from '../../src-main/web/server'
import { wsBridge } from '../support/bridges'
import { contractSuite } from '../ipc/contract-suite'

contractSuite('WebSocket (browser mode)', 'web', async ({ host }) => {
  const server = await startWebServer({
    host,
    staticDir: join(process.cwd(), 'out', 'renderer'),
    port: 0,
  })
  return { bridge: () => wsBridge(server.url), close: () => server.close() }
})
