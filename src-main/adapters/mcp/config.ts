/**
 * MCP server configuration in the Claude Desktop format:
 * `{"mcpServers": {"name": {"command", "args", "env", "cwd"} | {"url", "headers"}, "disabled"?: true}}`
 * plus Cairn's own optional keys (`trustAnnotations`, `allowViews`, `timeoutMs`, `maxTimeoutMs`), which
 * Claude Desktop ignores.
 */
import { readFileSync } from 'node:fs'
import { homedir } from 'node:os'
import { join } from 'node:path'
import type { McpCommandLine } from '../../../src-preload/contract/dto'
import type { z } from 'zod'
import {
  isStdio,
  type Environment,
  type McpServerConfig,
  type McpServerConfigs,
  type McpServersConfig,
} from '../../core/mcp-ports'
import { fingerprintOf } from '../../core/tools/fingerprint'
import { entryProblem, httpEntrySchema, stdioEntrySchema } from './server-entry'
import { ExpectedError } from '../../core/errors'

export const DEFAULT_CALL_TIMEOUT_MS = 60_000
export const DEFAULT_MAX_CALL_TIMEOUT_MS = 10 * 60_000

/** An MCP server's configuration is not valid: the message names the server and the field. */
export class McpConfigError extends ExpectedError<'bad_request'> {
  override name = 'McpConfigError'
  constructor(message: string) {
    super('bad_request', message)
  }
}

type Common = Pick<
  McpServerConfig,
  'disabled' | 'trustAnnotations' | 'allowViews' | 'timeoutMs' | 'maxTimeoutMs'
>

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/
/** the server name of the built-in tools (in any case): no MCP server may take it */
const RESERVED_NAME = 'cairn'

/** Checks one server's entry; throws McpConfigError saying what is wrong. */
export function parseServerConfig(name: string, raw: unknown): McpServerConfig {
  const where = `mcpServers["${name}"]`
  if (!NAME.test(name)) {
    throw new McpConfigError(
      `${where}: a server name uses letters, digits, spaces, ".", "_" or "-" (up to 64)`,
    )
  }
  if (name.trim().toLowerCase() === RESERVED_NAME) {
    throw new McpConfigError(
      `${where}: "${RESERVED_NAME}" is the name of Cairn's built-in tools and cannot name an MCP server; choose another name`,
    )
  }
  if (raw === null || typeof raw !== 'object' || Array.isArray(raw))
    throw new McpConfigError(`${where} must be an object`)
  const r = raw as Record<string, unknown>
  const common: Common = {}
  if (r['disabled'] !== undefined) common.disabled = r['disabled'] === true
  if (r['trustAnnotations'] !== undefined) common.trustAnnotations = r['trustAnnotations'] === true
  if (r['allowViews'] !== undefined) common.allowViews = r['allowViews'] === true
  /** the entry checked with `schema`; its timeouts (both kinds have them) go into `common` */
  const checked = <T extends Pick<Common, 'timeoutMs' | 'maxTimeoutMs'>>(
    schema: z.ZodType<T>,
  ): T => {
    const c = entryProblem(schema, r, where)
    if (!c.ok) throw new McpConfigError(c.message)
    if (c.data.timeoutMs) common.timeoutMs = c.data.timeoutMs
    if (c.data.maxTimeoutMs) common.maxTimeoutMs = c.data.maxTimeoutMs
    return c.data
  }
  if (typeof r['command'] === 'string') {
    const e = checked(stdioEntrySchema)
    return {
      ...common,
      command: e.command,
      ...(e.args ? { args: e.args } : {}),
      ...(e.env ? { env: e.env } : {}),
      ...(e.cwd !== undefined ? { cwd: e.cwd } : {}),
      ...(e.extension !== undefined ? { extension: e.extension } : {}),
    }
  }
  if (typeof r['url'] === 'string') {
    const e = checked(httpEntrySchema)
    const oauth = e.oauth ? stripUndefined(e.oauth) : undefined
    return {
      ...common,
      url: e.url,
      ...(e.headers ? { headers: e.headers } : {}),
      ...(oauth ? { oauth } : {}),
    }
  }
  throw new McpConfigError(
    `${where} needs a "command" (a program to start) or a "url" (a server to connect to)`,
  )
}

function stripUndefined<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T
}

/** Parses `{"mcpServers": {...}}` (or the bare map). Throws McpConfigError. */
export function parseMcpConfig(json: unknown): McpServersConfig {
  if (json === null || typeof json !== 'object' || Array.isArray(json))
    throw new McpConfigError('the MCP configuration must be a JSON object')
  const root = json as Record<string, unknown>
  const servers = 'mcpServers' in root ? root['mcpServers'] : root
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers))
    throw new McpConfigError('"mcpServers" must be an object')
  const out: McpServersConfig = {}
  for (const [name, raw] of Object.entries(servers)) out[name] = parseServerConfig(name, raw)
  return out
}

function readJsonFile(file: string): unknown {
  let text: string
  try {
    text = readFileSync(file, 'utf8')
  } catch (e) {
    throw new McpConfigError(`cannot read the MCP configuration ${file}: ${(e as Error).message}`)
  }
  try {
    return JSON.parse(text)
  } catch (e) {
    throw new McpConfigError(`${file} is not valid JSON: ${(e as Error).message}`)
  }
}

function parseFile(file: string, json: unknown): McpServersConfig {
  try {
    return parseMcpConfig(json)
  } catch (e) {
    throw new McpConfigError(`${file}: ${(e as Error).message}`)
  }
}

export function readMcpConfigFile(file: string): McpServersConfig {
  return parseFile(file, readJsonFile(file))
}

/**
 * Another app's servers may use the name the built-in tools keep: such a server comes in as
 * `cairn-imported` (or `cairn-imported-2`, …) rather than failing the whole import.
 */
function renameReserved(json: unknown): unknown {
  if (json === null || typeof json !== 'object' || Array.isArray(json)) return json
  const root = json as Record<string, unknown>
  const servers = root['mcpServers']
  if (servers === null || typeof servers !== 'object' || Array.isArray(servers)) return json
  const entries = Object.entries(servers as Record<string, unknown>)
  if (!entries.some(([n]) => n.trim().toLowerCase() === RESERVED_NAME)) return json
  const taken = new Set(entries.map(([n]) => n))
  const renamed: Record<string, unknown> = {}
  for (const [n, c] of entries) {
    if (n.trim().toLowerCase() !== RESERVED_NAME) {
      renamed[n] = c
      continue
    }
    let name = `${RESERVED_NAME}-imported`
    for (let i = 2; taken.has(name); i++) name = `${RESERVED_NAME}-imported-${i}`
    taken.add(name)
    renamed[name] = c
  }
  return { ...root, mcpServers: renamed }
}

/** What "always allow" rules are bound to: the parts that decide what runs. */
export function configFingerprint(c: McpServerConfig): string {
  return isStdio(c)
    ? fingerprintOf({
        command: c.command,
        args: c.args ?? [],
        env: c.env ?? {},
        cwd: c.cwd ?? null,
      })
    : fingerprintOf({ url: c.url, headers: Object.keys(c.headers ?? {}).sort() })
}

/**
 * Servers from text a user pasted: `{"mcpServers": {...}}`, the bare map `{"name": {...}}`,
 * or one server object (`{"command": ...}` or `{"url": ...}`) named by `name`. Throws
 * McpConfigError naming the server and the field that is wrong.
 */
export function parseServersText(text: string, name?: string): McpServersConfig {
  if (!text.trim()) throw new McpConfigError('Paste a JSON object first.')
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new McpConfigError(`This is not valid JSON: ${(e as Error).message}`)
  }
  const single =
    json !== null &&
    typeof json === 'object' &&
    !Array.isArray(json) &&
    (typeof (json as Record<string, unknown>)['command'] === 'string' ||
      typeof (json as Record<string, unknown>)['url'] === 'string')
  if (single) {
    const n = name?.trim() ?? ''
    if (!n) throw new McpConfigError('This is one server without a name: give it a name.')
    return { [n]: parseServerConfig(n, json) }
  }
  const servers = parseMcpConfig(json)
  if (Object.keys(servers).length === 0) throw new McpConfigError('There is no server in it.')
  return servers
}

/** The full command line of a stdio server, as the user confirms it (null for a URL server). */
export function commandLineOf(c: McpServerConfig): McpCommandLine | null {
  if (!isStdio(c)) return null
  return {
    command: c.command,
    args: [...(c.args ?? [])],
    envNames: Object.keys(c.env ?? {}),
    cwd: c.cwd ?? null,
    fingerprint: configFingerprint(c),
  }
}

/** Where Claude Desktop keeps its configuration on this OS. */
export function claudeDesktopConfigPath(
  platform: NodeJS.Platform = process.platform,
  env: NodeJS.ProcessEnv = process.env,
  home: string = homedir(),
): string {
  if (platform === 'darwin')
    return join(home, 'Library', 'Application Support', 'Claude', 'claude_desktop_config.json')
  if (platform === 'win32')
    return join(
      env['APPDATA'] ?? join(home, 'AppData', 'Roaming'),
      'Claude',
      'claude_desktop_config.json',
    )
  return join(
    env['XDG_CONFIG_HOME'] || join(home, '.config'),
    'Claude',
    'claude_desktop_config.json',
  )
}

/** The servers of a Claude Desktop configuration, each disabled until the user has reviewed it. */
export function importClaudeDesktop(file: string = claudeDesktopConfigPath()): McpServersConfig {
  const servers = parseFile(file, renameReserved(readJsonFile(file)))
  const out: McpServersConfig = {}
  for (const [name, c] of Object.entries(servers)) out[name] = { ...c, disabled: true }
  return out
}

/** The command line exactly as it will run, for review before enabling. */
export function describeServer(c: McpServerConfig): string {
  if (!isStdio(c))
    return `${c.url}${c.headers ? ` (headers: ${Object.keys(c.headers).join(', ')})` : ''}`
  const quote = (a: string): string =>
    /^[\w@%+=:,./-]+$/.test(a) ? a : `'${a.replace(/'/g, `'\\''`)}'`
  const envNames = Object.keys(c.env ?? {})
  return [
    [c.command, ...(c.args ?? [])].map(quote).join(' '),
    envNames.length ? `env: ${envNames.join(', ')}` : '',
    c.cwd ? `cwd: ${c.cwd}` : '',
  ]
    .filter(Boolean)
    .join('  ·  ')
}

/** Reads `settings.mcpServers`, skipping (with a warning) entries that are not valid. */
export function configuredServers(
  raw: Record<string, unknown>,
  warn: (m: string) => void,
): McpServersConfig {
  const out: McpServersConfig = {}
  for (const [name, entry] of Object.entries(raw)) {
    try {
      out[name] = parseServerConfig(name, entry)
    } catch (e) {
      warn(`the MCP server "${name}" in the settings is skipped: ${(e as McpConfigError).message}`)
    }
  }
  return out
}

/** The configuration language as the services' port. */
export const mcpServerConfigs: McpServerConfigs = {
  parse: parseServerConfig,
  parseText: parseServersText,
  fromSettings: configuredServers,
  claudeDesktopFile: (env: Environment) =>
    claudeDesktopConfigPath(process.platform, env, env['HOME'] || homedir()),
  importClaudeDesktop,
  describe: describeServer,
  commandLine: commandLineOf,
  fingerprint: configFingerprint,
}
