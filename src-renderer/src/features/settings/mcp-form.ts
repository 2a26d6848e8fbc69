/**
 * The "Add a server" form's values → a server configuration in the Claude Desktop format,
 * with a message per field that is wrong. The host checks the result again.
 */
import type { McpServerConfigDto } from '../../../../src-preload/contract/dto'

export interface McpFormValues {
  name: string
  kind: 'command' | 'url'
  command: string
  /** one argument per line */
  args: string
  /** KEY=VALUE per line */
  env: string
  cwd: string
  url: string
  /** Key: Value per line */
  headers: string
}

export const emptyMcpForm: McpFormValues = {
  name: '',
  kind: 'command',
  command: '',
  args: '',
  env: '',
  cwd: '',
  url: '',
  headers: '',
}

export type McpFormErrors = Partial<Record<keyof McpFormValues, string>>

const NAME = /^[A-Za-z0-9][A-Za-z0-9 ._-]{0,63}$/
const ENV_KEY = /^[A-Za-z_][A-Za-z0-9_]*$/
const HEADER_KEY = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/

const lines = (text: string): string[] => text.split('\n').map((l) => l.replace(/\r$/, ''))

function pairs(
  text: string,
  sep: string,
  key: RegExp,
  what: string,
): { map: Record<string, string> } | { error: string } {
  const map: Record<string, string> = {}
  let n = 0
  for (const raw of lines(text)) {
    n++
    if (raw.trim() === '') continue
    const at = raw.indexOf(sep)
    if (at <= 0) return { error: `Line ${n} needs the form ${what}.` }
    const k = raw.slice(0, at).trim()
    // an environment value is kept as typed; a header's value is trimmed
    const v = sep === '=' ? raw.slice(at + 1) : raw.slice(at + sep.length).trim()
    if (!key.test(k)) return { error: `Line ${n}: "${k}" is not a valid name.` }
    if (k in map) return { error: `Line ${n}: "${k}" is given twice.` }
    map[k] = v
  }
  return { map }
}

/** The configuration the form describes, or what is wrong with each field. */
export function mcpFormToConfig(
  v: McpFormValues,
): { config: McpServerConfigDto; name: string } | { errors: McpFormErrors } {
  const errors: McpFormErrors = {}
  const name = v.name.trim()
  if (!name) errors.name = 'Give the server a name.'
  else if (!NAME.test(name))
    errors.name =
      'Use letters, digits, spaces, ".", "_" or "-" (up to 64), starting with a letter or digit.'
  if (v.kind === 'command') {
    const command = v.command.trim()
    if (!command) errors.command = 'Give the program to run, e.g. npx or /usr/local/bin/server.'
    const args = lines(v.args).filter((a) => a.trim() !== '')
    const env = pairs(v.env, '=', ENV_KEY, 'NAME=value')
    if ('error' in env) errors.env = env.error
    if (Object.keys(errors).length > 0 || 'error' in env) return { errors }
    const cwd = v.cwd.trim()
    return {
      name,
      config: {
        command,
        ...(args.length ? { args } : {}),
        ...(Object.keys(env.map).length ? { env: env.map } : {}),
        ...(cwd ? { cwd } : {}),
      },
    }
  }
  const url = v.url.trim()
  if (!url) errors.url = 'Give the server’s address, e.g. https://example.com/mcp.'
  else {
    let parsed: URL | null = null
    try {
      parsed = new URL(url)
    } catch {
      parsed = null
    }
    if (!parsed) errors.url = 'This is not a valid address.'
    else if (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')
      errors.url = 'The address must start with http:// or https://.'
  }
  const headers = pairs(v.headers, ':', HEADER_KEY, 'Name: value')
  if ('error' in headers) errors.headers = headers.error
  if (Object.keys(errors).length > 0 || 'error' in headers) return { errors }
  return {
    name,
    config: { url, ...(Object.keys(headers.map).length ? { headers: headers.map } : {}) },
  }
}
