/**
 * Electron's security checklist, in one place: the content security policy, who may talk
 * to main (the trusted-sender check), where a page may navigate, which links open in the
 * browser, and the permissions a page gets (clipboard writes only).
 */
import type { Session, WebContents } from 'electron'
import { VIEW_PATH_PREFIX } from '../../src-preload/contract/mcp-apps'
import { CSP } from '../services/host/page-policy'

/** The production renderer's origin (`protocol.ts` serves it). */
export const APP_ORIGIN = 'app://cairn'

/**
 * `scheme://host[:port]` of a URL, or null. Node's URL gives `"null"` as the origin of a
 * custom scheme such as `app:`, so the origin is put together by hand.
 */
export function originOf(url: string): string | null {
  const u = URL.parse(url)
  if (!u) return null
  if (!['app:', 'http:', 'https:'].includes(u.protocol) || u.host === '') return null
  return `${u.protocol}//${u.host}`
}

/** The origins our page is served from: app://cairn, plus the dev server when not packaged. */
export function trustedOrigins(devServerUrl: string | undefined): string[] {
  const dev = devServerUrl ? originOf(devServerUrl) : null
  return dev ? [APP_ORIGIN, dev] : [APP_ORIGIN]
}

export function isOurUrl(url: string, origins: readonly string[]): boolean {
  const origin = originOf(url)
  return origin !== null && origins.includes(origin)
}

/** What the IPC handler knows of the frame that sent a message. */
export interface SenderFrame {
  readonly url: string
  readonly parent: unknown
}

/**
 * A request is answered only when it comes from the top frame of a page of ours. Checked
 * before anything of the request is looked at.
 */
export function isTrustedSender(
  frame: SenderFrame | null | undefined,
  origins: readonly string[],
): boolean {
  try {
    return !!frame && frame.parent === null && isOurUrl(frame.url, origins)
  } catch {
    // a frame that went away while we looked
    return false
  }
}

/** Links that may leave the app, to the user's browser or mail program. */
export function isExternalAllowed(url: string): boolean {
  const protocol = URL.parse(url)?.protocol
  return protocol === 'https:' || protocol === 'mailto:'
}

/**
 * No new windows, no navigation away from our page, no <webview>. A link to https: or
 * mailto: opens outside the app instead.
 */
export function guardWebContents(
  contents: WebContents,
  origins: readonly string[],
  openExternal: (url: string) => Promise<void>,
): void {
  const openOutside = (url: string): void => {
    if (isExternalAllowed(url)) void openExternal(url).catch(() => {})
  }
  contents.setWindowOpenHandler(({ url }) => {
    openOutside(url)
    return { action: 'deny' }
  })
  contents.on('will-navigate', (event) => {
    if (isOurUrl(event.url, origins)) return
    event.preventDefault()
    openOutside(event.url)
  })
  contents.on('will-attach-webview', (event) => event.preventDefault())
}

/**
 * Replaces any CSP header of a response with ours, except on a tool's view served by our
 * protocol (`app://cairn/mcp-view/…`), which carries the view's own, stricter one.
 */
export function withCsp(
  headers: Record<string, string[]> | undefined,
  url = '',
): Record<string, string[]> {
  if (url.startsWith(`${APP_ORIGIN}${VIEW_PATH_PREFIX}`)) return headers ?? {}
  const out: Record<string, string[]> = {}
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (name.toLowerCase() !== 'content-security-policy') out[name] = value
  }
  out['Content-Security-Policy'] = [CSP]
  return out
}

/**
 * The one permission a page gets: writing (sanitized) text to the clipboard, for the
 * Copy buttons. Reading the clipboard stays denied.
 */
export const ALLOWED_PERMISSION = 'clipboard-sanitized-write'

/**
 * Every permission request (camera, notifications, clipboard reads, …) and check is denied
 * except `ALLOWED_PERMISSION`, and every response the session loads over http (the dev
 * server) carries our CSP. Responses of the app: protocol carry it themselves
 * (`protocol.ts`).
 */
export function hardenSession(session: Session): void {
  session.setPermissionRequestHandler((_contents, permission, callback) =>
    callback(permission === ALLOWED_PERMISSION),
  )
  session.setPermissionCheckHandler((_contents, permission) => permission === ALLOWED_PERMISSION)
  session.setDevicePermissionHandler(() => false)
  session.webRequest.onHeadersReceived((details, callback) => {
    callback({ responseHeaders: withCsp(details.responseHeaders, details.url) })
  })
}
