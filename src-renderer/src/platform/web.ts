/** Browser mode: the contract over a WebSocket to the host that served the page. */
import { fetchAuthCheck, WsTransport } from './ws-transport'
import { downloadExport } from './download'
import { uploadExtension, uploadFile, uploadImportFile } from './attach-file'
import type { Platform } from './types'

export function webPlatform(): Platform {
  const scheme = location.protocol === 'https:' ? 'wss:' : 'ws:'
  const ws = new WsTransport({
    url: `${scheme}//${location.host}/ws`,
    checkAuth: () => fetchAuthCheck(),
  })
  return {
    kind: 'web',
    bridge: ws,
    connection: {
      status: () => ws.status,
      onStatus: (l) => ws.onStatus(l),
      onReconnect: (l) => ws.onReconnect(l),
    },
    openExternal: (url) => void window.open(url, '_blank', 'noopener,noreferrer'),
    copyText: (text) => navigator.clipboard.writeText(text),
    // the browser saves one file: an export with files is one ZIP archive
    saveFile: downloadExport,
    attachFile: uploadFile,
    openExtension: uploadExtension,
    offerImportFile: uploadImportFile,
  }
}
