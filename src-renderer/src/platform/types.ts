/**
 * What the window needs from the host it runs in. One interface, three implementations:
 * the desktop app (the preload's bridge), browser mode (a WebSocket) and tests (an
 * in-memory host); `choosePlatform` picks one in exactly one place.
 */
import type { CairnBridge } from '../../../src-preload/contract/bridge'
import type { AttachmentTaken, ImportFile, Result } from '../../../src-preload/contract/routes'
import type { ExtensionReview } from '../../../src-preload/contract/mcpb'
import type { ConnectionStatus } from './ws-transport'

export type { ConnectionStatus }

export interface Connection {
  status(): ConnectionStatus
  onStatus(listener: (s: ConnectionStatus) => void): () => void
  /** after a lost connection came back */
  onReconnect(listener: () => void): () => void
}

export interface Platform {
  kind: 'desktop' | 'web' | 'test'
  bridge: CairnBridge
  connection: Connection
  /** opens an https: or mailto: address outside the app (the caller has asked the user) */
  openExternal(url: string): void
  /** copies text to the clipboard; rejects when the clipboard refuses */
  copyText(text: string): Promise<void>
  /**
   * Saves text as a file the user keeps (an export): where the user chose in the system's
   * save dialog (answers that path; null when they cancel) or as a download (answers null).
   * Rejects when it fails.
   */
  saveFile(
    filename: string,
    mimeType: string,
    content: string,
    /** written beside it, at these relative paths (a Markdown export's attachments; base64) */
    files?: { path: string; data: string }[],
  ): Promise<string | null>
  /**
   * Asks the user for a folder with the system's picker; null when they cancel. Only hosts
   * that can show one have it (the browser cannot give a folder's path).
   */
  pickFolder?(title?: string): Promise<string | null>
  /** the system's file picker for a GGUF model (the desktop app only) */
  pickModelFile?(): Promise<string | null>
  /**
   * The system's file picker for files to attach (the desktop app only; elsewhere the page's
   * file input): each chosen file, read by the engine with `read`, one at a time.
   */
  pickFiles?(): Promise<PickedFile[]>
  /** the system's file picker for an export to import (the desktop app only); null: cancelled */
  pickImportFile?(): Promise<ImportFile | null>
  /**
   * Hands an export file of the page (its file input, a drop) to the engine for import
   * (browser mode: streamed to `POST /upload-import`, never read into the page)
   */
  offerImportFile?(file: File): Promise<Result<ImportFile>>
  /** Hands a file of the page (dropped, pasted, chosen in its file input) to the engine. */
  attachFile(file: File): Promise<Result<AttachmentTaken>>
  /**
   * The system's file picker for an extension bundle (`.mcpb`; the desktop app only): the
   * engine reads and unpacks it for review; null when the user cancels.
   */
  pickExtension?(): Promise<Result<{ review: ExtensionReview | null }>>
  /** Hands an extension bundle of the page (dropped, chosen in its file input) to the engine, for review. */
  openExtension(file: File): Promise<Result<ExtensionReview>>
}

/** A file chosen in the system's picker, not yet read. */
export interface PickedFile {
  name: string
  bytes: number
  read(): Promise<Result<AttachmentTaken>>
}

/** A connection that is always open (the desktop app's IPC, tests). */
export const alwaysOpen: Connection = {
  status: () => 'open',
  onStatus: () => () => {},
  onReconnect: () => () => {},
}
