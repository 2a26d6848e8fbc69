/** The desktop app: the preload's `window.cairn` bridge over Electron IPC. */
import type { EventName, EventPayloads } from '../../../src-preload/contract/app-events'
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import { attachOverBridge, openExtensionOverBridge } from './attach-file'
import { call } from './request'
import { alwaysOpen, type Platform } from './types'

/**
 * Functions that cross Electron's contextBridge arrive as new proxies, so `off` could not
 * find a listener given to `on`: keep the listeners here and register one dispatcher per
 * event name with the preload.
 */
function fromPreload(preload: CairnBridge): CairnBridge {
  const listeners = new Map<EventName, Set<(p: never) => void>>()
  return {
    request: (route, input) => preload.request(route, input),
    on(event, listener) {
      let set = listeners.get(event)
      if (!set) {
        listeners.set(event, (set = new Set()))
        const registry = set
        preload.on(event, (payload: EventPayloads[typeof event]) => {
          for (const l of [...registry]) l(payload as never)
        })
      }
      set.add(listener as (p: never) => void)
    },
    off(event, listener) {
      listeners.get(event)?.delete(listener as (p: never) => void)
    },
  }
}

export function desktopPlatform(preload: CairnBridge): Platform {
  const bridge = fromPreload(preload)
  return {
    kind: 'desktop',
    bridge,
    connection: alwaysOpen,
    // the main process lets only https: and mailto: out, to the OS browser or mail program
    openExternal: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    copyText: (text) => navigator.clipboard.writeText(text),
    // the system's dialogs, shown by the main process: the page never learns other paths
    saveFile: async (filename, _mimeType, content, files) =>
      (
        await call(bridge, 'app.saveFile', {
          filename,
          content,
          ...(files?.length ? { files } : {}),
        })
      ).path,
    pickFolder: async (title) =>
      (await call(bridge, 'app.pickFolder', title ? { title } : {})).path,
    pickModelFile: async () => (await call(bridge, 'app.pickModelFile', {})).path,
    pickFiles: async () =>
      (await call(bridge, 'attachments.pick', {})).files.map((f) => ({
        name: f.name,
        bytes: f.bytes,
        read: () => bridge.request('attachments.addPicked', { pickId: f.pickId }),
      })),
    pickImportFile: async () => (await call(bridge, 'imports.pick', {})).file,
    attachFile: (file) => attachOverBridge(bridge, file),
    pickExtension: () => bridge.request('mcp.extensionPick', {}),
    openExtension: (file) => openExtensionOverBridge(bridge, file),
  }
}
