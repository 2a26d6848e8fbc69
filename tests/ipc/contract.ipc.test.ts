import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { createAppHost } from '../../src-main/services/host/app-host'
import { ipcBridge } from '../support/bridges'
import { contractSuite } from './contract-suite'

contractSuite(
  'Electron IPC (real handler and event forwarding, fake ipcMain)',
  'electron',
  async ({ host }) => ({
    bridge: async () => ipcBridge(host),
    close: async () => {},
  }),
)

describe('the Electron request handler', () => {
  it('answers only the top frame of our own page', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cairn-ipc-sender-'))
    const host = await createAppHost({ dataDir: dir, hostKind: 'electron', version: 't', env: {} })
    try {
      for (const bad of [
        ipcBridge(host, { senderUrl: 'https://attacker.example/' }),
        ipcBridge(host, { subframe: true }),
      ]) {
        expect(await bad.request('app.info', {})).toEqual({
          ok: false,
          error: { code: 'forbidden', message: expect.any(String) },
        })
        await bad.close()
      }
    } finally {
      await host.shutdown()
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
