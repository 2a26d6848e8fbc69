/** The Electron entry: the desktop host on the shared core (see `electron/main.ts`). */
import { electronStoreFactory } from './electron/settings-store'
import { runApp } from './electron/main'
import { createAppHost } from './services/host/app-host'

void runApp({ createHost: createAppHost, createStore: electronStoreFactory })
