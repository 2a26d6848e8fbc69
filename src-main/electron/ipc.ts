/**
 * The Electron transport of the contract: one `ipcMain.handle` for requests (sender checked
 * first, then the router parses and answers) and, per page of ours, one hub subscription
 * that sends events with `webContents.send`.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron'
import { CHANNELS } from '../../src-preload/contract/bridge'
import type { Result } from '../../src-preload/contract/routes'
import type { AppEvent } from '../../src-preload/contract/app-events'
import type { Router } from '../ipc/router'
import { isOurUrl, isTrustedSender } from './security'

const FORBIDDEN: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'Requests are answered only for Cairn’s own window.' },
}

/** Registers the request handler; returns a function that removes it. */
export function handleRequests(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  router: Router,
  origins: readonly string[],
): () => void {
  ipcMain.handle(
    CHANNELS.request,
    async (event: IpcMainInvokeEvent, route: unknown, input: unknown): Promise<Result<unknown>> => {
      if (!isTrustedSender(event.senderFrame, origins)) return FORBIDDEN
      return router.handle(route, input)
    },
  )
  return () => ipcMain.removeHandler(CHANNELS.request)
}

interface Hub {
  subscribe(send: (e: AppEvent) => void): () => void
}

/**
 * Subscribes `contents` to the hub while it shows a page of ours: from each finished load
 * until the next main-frame navigation (a reload included), a crash, or its destruction.
 * The host counts subscribers to know whether anyone can still answer an approval.
 */
export function forwardEvents(contents: WebContents, hub: Hub, origins: readonly string[]): void {
  let unsubscribe: (() => void) | null = null
  const stop = (): void => {
    unsubscribe?.()
    unsubscribe = null
  }
  const start = (): void => {
    stop()
    if (contents.isDestroyed() || !isOurUrl(contents.getURL(), origins)) return
    unsubscribe = hub.subscribe((e) => {
      if (!contents.isDestroyed()) contents.send(CHANNELS.event, e)
    })
  }
  contents.on('did-finish-load', start)
  contents.on('did-start-navigation', (details) => {
    if (details.isMainFrame && !details.isSameDocument) stop()
  })
  contents.on('render-process-gone', stop)
  contents.once('destroyed', stop)
}
