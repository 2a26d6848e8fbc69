/**
 * The one place that picks the platform: the preload's bridge in the desktop app, the
 * WebSocket in browser mode. Everything else gets the platform from React context.
 */
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import { desktopPlatform } from './desktop'
import type { Platform } from './types'
import { webPlatform } from './web'

declare global {
  interface Window {
    cairn?: CairnBridge
  }
}

export function choosePlatform(): Platform {
  return window.cairn ? desktopPlatform(window.cairn) : webPlatform()
}

export type { Connection, ConnectionStatus, Platform } from './types'
