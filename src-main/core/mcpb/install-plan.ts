/**
 * From an MCPB manifest to what Cairn shows and runs: the review (who made it, what it
 * offers, what it needs) and the server's entry, with the manifest's variables filled as
 * the spec says (`${__dirname}`, `${HOME}`, `${DESKTOP}`, `${DOCUMENTS}`, `${DOWNLOADS}`,
 * `${pathSeparator}`, `${/}`, `${user_config.<key>}`). A sensitive setting's value is not
 * written into the entry: its `${user_config.<key>}` stays, and the value goes to the
 * secrets store, filled in when the server starts (see `fillSecretValues`).
 */
import type { ExtensionSetting } from '../../../src-preload/contract/mcpb'
import type { McpbManifest, UserConfigOption } from './manifest'

/** the runtimes Cairn runs an extension's server with, by the manifest's `server.type` */
const RUNTIMES: Record<string, readonly string[]> = {
  node: ['node'],
  python: ['python', 'python3'],
  uv: ['uv'],
}

/** Where the manifest's own variables point on this computer. */
export interface PlanPlace {
  /** the folder the bundle is unpacked into (`${__dirname}`) */
  dir: string
  home: string
  platform: string
  separator: string
}

/** A value given for a setting: text, or several (a `multiple` one). */
export type SettingValue = string | string[]

/** Fills `${name}` in `s` from `vars`; an unknown name stays as it is. Linear, no patterns. */
export function substitute(s: string, vars: ReadonlyMap<string, string>): string {
  let out = ''
  let i = 0
  for (;;) {
    const start = s.indexOf('${', i)
    const end = start < 0 ? -1 : s.indexOf('}', start + 2)
    if (start < 0 || end < 0) return out + s.slice(i)
    const value = vars.get(s.slice(start + 2, end))
    out += s.slice(i, start) + (value ?? s.slice(start, end + 1))
    i = end + 1
  }
}

function placeVars(place: PlanPlace): Map<string, string> {
  const home = place.home
  const join = (name: string): string => `${home}${place.separator}${name}`
  return new Map([
    ['__dirname', place.dir],
    ['HOME', home],
    ['DESKTOP', join('Desktop')],
    ['DOCUMENTS', join('Documents')],
    ['DOWNLOADS', join('Downloads')],
    ['pathSeparator', place.separator],
    ['/', place.separator],
  ])
}

function defaultText(o: UserConfigOption, vars: ReadonlyMap<string, string>): string {
  const d = o.default
  if (d === undefined) return ''
  if (Array.isArray(d)) return d.map((x) => substitute(x, vars)).join('\n')
  return typeof d === 'string' ? substitute(d, vars) : String(d)
}

/** The manifest's settings as the review shows them. */
export function settingsOf(m: McpbManifest, place: PlanPlace): ExtensionSetting[] {
  const vars = placeVars(place)
  return Object.entries(m.user_config ?? {}).map(([key, o]) => ({
    key,
    type: o.type,
    title: o.title,
    description: o.description ?? '',
    required: o.required === true,
    sensitive: o.sensitive === true,
    multiple: o.multiple === true,
    default: defaultText(o, vars),
    min: o.min ?? null,
    max: o.max ?? null,
  }))
}

/** The manifest's server, with this platform's override applied. */
export function serverOf(
  m: McpbManifest,
  platform: string,
): { command: string; args: string[]; env: Record<string, string> } {
  const base = m.server.mcp_config
  const over = base.platform_overrides?.[platform]
  return {
    command: over?.command ?? base.command,
    args: over?.args ?? base.args ?? [],
    env: over?.env ?? base.env ?? {},
  }
}

/** Why Cairn will not run this extension here; null when it can. */
export function refusalOf(m: McpbManifest, platform: string): string | null {
  const type = m.server.type
  const runtimes = RUNTIMES[type]
  if (!runtimes)
    return `its server is a program of its own ("binary"): Cairn runs extensions only with Node.js, Python or uv found on this computer, never a program from inside a bundle. Ask its publisher for a Node.js or Python build.`
  const platforms = m.compatibility?.platforms
  if (platforms && platforms.length > 0 && !platforms.includes(platform))
    return `it runs on ${platforms.join(', ')}, not on ${platform}.`
  const command = serverOf(m, platform).command
  if (!runtimes.includes(command))
    return `its server is of type "${type}" but runs "${command}" instead of ${runtimes.map((r) => `"${r}"`).join(' or ')}: Cairn runs only the runtime the type names.`
  return null
}

/** Checks the values given against the settings; the first problem in words, or null. */
export function valuesProblem(
  settings: readonly ExtensionSetting[],
  values: Readonly<Record<string, SettingValue>>,
): string | null {
  for (const key of Object.keys(values))
    if (!settings.some((s) => s.key === key)) return `the extension has no setting "${key}"`
  for (const s of settings) {
    const list = listOf(values[s.key] ?? s.default)
    if (list.length === 0) {
      if (s.required) return `"${s.title}" (${s.key}) is required`
      continue
    }
    if (list.length > 1 && !s.multiple) return `"${s.title}" (${s.key}) takes one value`
    for (const v of list) {
      if (s.type === 'boolean' && v !== 'true' && v !== 'false')
        return `"${s.title}" (${s.key}) must be true or false`
      if (s.type === 'number') {
        const n = Number(v)
        if (v.trim() === '' || !Number.isFinite(n))
          return `"${s.title}" (${s.key}) must be a number`
        if (s.min !== null && n < s.min) return `"${s.title}" (${s.key}) must be at least ${s.min}`
        if (s.max !== null && n > s.max) return `"${s.title}" (${s.key}) must be at most ${s.max}`
      }
    }
  }
  return null
}

function listOf(v: SettingValue | undefined): string[] {
  if (v === undefined) return []
  const list = Array.isArray(v) ? v : v.split('\n')
  return list.map((x) => x.trim()).filter((x) => x !== '')
}

/** The stdio entry to save and the sensitive values to keep apart. */
export interface ExtensionEntry {
  command: string
  args: string[]
  env: Record<string, string>
  cwd: string
  secretValues: Record<string, string>
}

/** Builds the server's entry from the manifest and the (checked) values. */
export function entryFor(
  m: McpbManifest,
  place: PlanPlace,
  values: Readonly<Record<string, SettingValue>>,
): ExtensionEntry {
  const vars = placeVars(place)
  const lists = new Map<string, string[]>()
  const secretValues: Record<string, string> = {}
  for (const s of settingsOf(m, place)) {
    const list = listOf(values[s.key] ?? s.default)
    if (s.sensitive) {
      if (list.length > 0) secretValues[s.key] = list.join('\n')
      continue
    }
    lists.set(s.key, list)
    vars.set(`user_config.${s.key}`, list.join(','))
  }
  const server = serverOf(m, place.platform)
  const args: string[] = []
  for (const a of server.args) {
    // an argument that is one multiple setting alone becomes one argument per value
    const key = a.startsWith('${user_config.') && a.endsWith('}') ? a.slice(14, -1) : null
    const list = key === null ? undefined : lists.get(key)
    if (list && list.length > 1) args.push(...list)
    else args.push(substitute(a, vars))
  }
  const env = Object.fromEntries(
    Object.entries(server.env).map(([k, v]) => [k, substitute(v, vars)]),
  )
  return { command: server.command, args, env, cwd: place.dir, secretValues }
}

/**
 * Fills the sensitive settings' `${user_config.<key>}` kept in an extension's entry with
 * their values from the secrets store, as the server starts.
 */
export function fillSecretValues<T extends { args?: string[]; env?: Record<string, string> }>(
  entry: T,
  values: Readonly<Record<string, string>>,
): T {
  const vars = new Map(Object.entries(values).map(([k, v]) => [`user_config.${k}`, v]))
  if (vars.size === 0) return entry
  return {
    ...entry,
    ...(entry.args ? { args: entry.args.map((a) => substitute(a, vars)) } : {}),
    ...(entry.env
      ? {
          env: Object.fromEntries(
            Object.entries(entry.env).map(([k, v]) => [k, substitute(v, vars)]),
          ),
        }
      : {}),
  }
}

/** A server name from the extension's name: what a server name may hold, at most 64. */
export function suggestedName(m: McpbManifest): string {
  const cleaned = m.name
    .replace(/[^A-Za-z0-9 ._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
  return cleaned || 'extension'
}
