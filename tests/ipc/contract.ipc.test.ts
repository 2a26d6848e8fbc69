import { ipcBridge } from '../support/bridges'
import { contractSuite } from './contract-suite'

contractSuite('IPC (Electron-style router)', 'electron', async ({ host }) => ({
  bridge: async () => ipcBridge(host),
  close: async () => {},
}))
