/**
 * A Claude Desktop extension (an MCPB bundle, `.mcpb`) as Cairn shows it before installing
 * it (Settings › MCP servers › "Install extension…", `cairn mcp install <file.mcpb>`).
 * Everything here comes from the bundle's manifest and is shown as text, never as markup.
 */

/** One setting the extension asks for (the manifest's `user_config`). */
export interface ExtensionSetting {
  /** the key its value is given under (`${user_config.<key>}` in the manifest) */
  key: string
  type: 'string' | 'number' | 'boolean' | 'directory' | 'file'
  title: string
  description: string
  required: boolean
  /** a password, a token: typed hidden, kept with the API keys (secrets.json), never shown back */
  sensitive: boolean
  /** several values (one per line in the window, `--set key=…` repeated on the terminal) */
  multiple: boolean
  /** what it gets when the user gives nothing ('' for nothing), after `${HOME}` and the like */
  default: string
  min: number | null
  max: number | null
}

/** What the extension says it needs to run here. */
export interface ExtensionCompatibility {
  /** the systems it runs on (empty: it does not say) */
  platforms: string[]
  /** the runtimes it needs, e.g. `node: >=18` */
  runtimes: Record<string, string>
  /** the Claude Desktop versions it was made for, as it says */
  claudeDesktop: string | null
}

/** The program an extension's server runs with, found on this computer or not. */
export interface ExtensionRuntime {
  /** `node`, `python`, `uv` (`binary` is refused) */
  type: string
  /** the program the manifest runs (`node`, `python3`, `uv`) */
  command: string
  /** where it was found on this computer; null when it was not found */
  found: string | null
}

/** A bundle unpacked and checked, waiting for the user's review. */
export interface ExtensionReview {
  /** names the unpacked bundle until it is installed or discarded */
  stageId: string
  /** the bundle's file name as given */
  file: string
  manifestVersion: string
  name: string
  displayName: string | null
  version: string
  description: string
  author: { name: string; email: string | null; url: string | null }
  repository: string | null
  homepage: string | null
  license: string | null
  /** the file its server starts, inside the bundle */
  entryPoint: string
  runtime: ExtensionRuntime
  /** the tools and prompts it says it offers (the server tells the real list once it runs) */
  tools: { name: string; description: string }[]
  prompts: { name: string; description: string }[]
  /** it says its tools or prompts are made at run time, beyond those listed */
  generated: boolean
  compatibility: ExtensionCompatibility
  settings: ExtensionSetting[]
  /** the command line it will run, with `${user_config.…}` where a setting goes */
  command: string
  args: string[]
  /** the names of the environment variables it sets */
  envNames: string[]
  /** why Cairn will not install it; null: it can */
  refused: string | null
  /** the name it gets in Cairn unless the user gives another */
  suggestedName: string
  /** a server of the suggested name is configured already */
  exists: boolean
  /** files in the bundle, and their size unpacked */
  files: number
  bytes: number
}
