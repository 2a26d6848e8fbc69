import type { McpExtensions, McpLogins, McpServerConfigs } from '../../core/mcp-ports'
import type { ToolRuntime } from '../../core/service-ports'
import type { SkillLibrary } from '../../core/skills/skills'
import type { AppServices } from '../host/app-services'
import type { ApprovalBroker } from '../host/approvals'
import type { ElicitationBroker } from '../host/elicitations'
import type { EventHub } from '../host/event-hub'
import type { ViewDocuments } from '../host/view-documents'
import type { TurnManager } from '../turns/turn-manager'
import type { AttachmentInbox } from '../attachments/attachment-inbox'
import type { PickedFiles } from '../attachments/picked-files'
import type { ImportRuns } from '../sessions/import-runs'

/**
 * What the route handlers work with: ports (`core/service-ports.ts`, `core/mcp-ports.ts`)
 * and services, never an adapter. `services/host/app-host.ts` builds it.
 */
export interface HandlerContext {
  app: AppServices
  tools: ToolRuntime
  /** the MCP servers' configuration language (checks, command lines, Claude Desktop's file) */
  mcpConfigs: McpServerConfigs
  /** OAuth logins to remote MCP servers */
  mcpLogins: McpLogins
  /** Claude Desktop extensions (`.mcpb`) unpacked into the data directory */
  mcpExtensions: McpExtensions
  /** the data directory's skills, read afresh */
  skills(): SkillLibrary
  /** where they are: `<dataDir>/skills` */
  skillsFolder: string
  /** writes a file the user chose (the save dialog's), atomically */
  writeFile(path: string, content: string | Uint8Array): Promise<void>
  turns: TurnManager
  /** files attached in a window and not yet sent, by token */
  attachmentInbox: AttachmentInbox
  /** files chosen in the desktop app's open dialog, not yet read */
  pickedFiles: PickedFiles
  /** imports of export files started in the window */
  imports: ImportRuns
  approvals: ApprovalBroker
  elicitations: ElicitationBroker
  hub: EventHub
  /** tools' views (MCP Apps) read and ready for the host to serve */
  views: ViewDocuments
  env: NodeJS.ProcessEnv
  hostKind: 'electron' | 'web'
  version: string
  /** MCP servers come from `--mcp-config` for this run: the settings' servers are not used */
  mcpOverride: boolean
  /**
   * Asks the user, outside the renderer's reach, whether a server's command may run (the
   * desktop app's native dialog). Null: the renderer confirms in the page and proves it
   * with the command line's fingerprint (browser mode).
   */
  confirmCommand: ConfirmCommand | null
  /** the system's file dialogs (the desktop app); null where the host has none (browser mode) */
  dialogs: NativeDialogs | null
  /** the tray, the Quick ask window and its global shortcut (the desktop app); null elsewhere */
  desktop: DesktopShell | null
  /**
   * Opens a server's login address (the desktop app shows it first, then uses the shell;
   * elsewhere the system's browser, as the CLI does); false when the user declined.
   */
  openAuthorization: OpenAuthorization
  /**
   * Asks the user, outside the page, whether to move the damaged database aside and start a
   * new one (the desktop app's native dialog); false when they declined. Null: the page
   * asked before it sent the request (browser mode).
   */
  confirmNewDatabase?: ConfirmNewDatabase | null
  /**
   * Stops everything on the database, moves it aside (kept, for recovery) and opens the
   * engine again on a new one; the path the damaged file was moved to. The host's, once
   * the user agreed.
   */
  replaceDatabase?: () => Promise<string>
}

/** `damage`: what the store found, in words (what is wrong, what to do) */
export type ConfirmNewDatabase = (damage: string) => Promise<boolean>

export type OpenAuthorization = (server: string, url: string) => Promise<boolean>

/** The system's open-folder and save-file dialogs, shown by the host, not by the page. */
export interface NativeDialogs {
  /** the chosen folder's absolute path; null when the user cancels */
  pickFolder(o: { title: string; defaultPath?: string }): Promise<string | null>
  /** a GGUF model file the user chose (its absolute path); null when they cancel */
  pickModelFile(o: { title: string }): Promise<string | null>
  /** the absolute path the user chose to save to; null when they cancel */
  chooseSavePath(o: { defaultName: string }): Promise<string | null>
  /** the files the user chose to open (none: cancelled) */
  pickFiles?(o: { title: string }): Promise<string[]>
  /** an extension bundle (`.mcpb`) the user chose (its absolute path); null when they cancel */
  pickExtensionFile?(o: { title: string }): Promise<string | null>
}

/** The desktop shell: the Quick ask window, its global shortcut, the main window. */
export interface DesktopShell {
  /** takes `shortcut` for Quick ask, letting go of the one before (null: none); false when another app holds it */
  setQuickAskShortcut(shortcut: string | null): boolean
  /** whether the Quick ask shortcut is held now */
  quickAskRegistered(): boolean
  /** shows the main window at this chat and hides Quick ask; false: there is no window */
  openInMain(sessionId: string): boolean
  /** hides the Quick ask window; false: it is not open */
  hideQuickAsk(): boolean
}

/** What the user is asked to allow before an MCP server's command runs. */
export interface CommandConsentRequest {
  server: string
  command: string
  args: string[]
  envNames: string[]
  cwd: string | null
}

export type ConfirmCommand = (request: CommandConsentRequest) => Promise<boolean>
