/**
 * `cairn mcp install <file.mcpb>`: a Claude Desktop extension, unpacked into the data
 * directory, shown on the terminal (who made it, what it offers, the settings it needs and
 * exactly what it runs) and added switched off: `cairn mcp enable` starts it after review.
 * Everything the manifest says reaches the terminal through the guarded streams.
 */
import { join } from 'node:path'
import type { ExtensionReview, ExtensionSetting } from '../../src-preload/contract/mcpb'
import { parseServerConfig } from '../adapters/mcp/config'
import { ExtensionStore } from '../adapters/mcpb/extensions'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'

function settingLine(s: ExtensionSetting): string {
  const marks = [
    s.type,
    s.required ? 'required' : 'optional',
    ...(s.sensitive ? ['sensitive: kept in secrets.json'] : []),
    ...(s.multiple ? ['several values'] : []),
  ].join(', ')
  const def = s.default && !s.sensitive ? ` [default: ${s.default.replace(/\n/g, ', ')}]` : ''
  return `    ${s.key}: ${s.title} (${marks})${def}${s.description ? ` — ${s.description}` : ''}`
}

/** the review, as lines */
export function extensionLines(r: ExtensionReview): string[] {
  const author = [r.author.name, r.author.email, r.author.url].filter(Boolean).join(', ')
  const runtime = r.runtime.found
    ? `${r.runtime.command} (${r.runtime.found})`
    : `${r.runtime.command}: not found on this computer${r.runtime.type === 'node' ? ' — install Node.js, then enable the server' : ''}`
  const lines = [
    `${r.displayName ?? r.name} ${r.version}  (extension ${r.name}, manifest ${r.manifestVersion})`,
    ...(r.description ? [`  ${r.description}`] : []),
    `  author:   ${author}`,
    ...(r.repository ? [`  source:   ${r.repository}`] : []),
    ...(r.license ? [`  license:  ${r.license}`] : []),
    `  runtime:  ${r.runtime.type}, ${runtime}`,
    `  runs:     ${[r.command, ...r.args].join(' ')}`,
    ...(r.envNames.length ? [`  env:      ${r.envNames.join(', ')}`] : []),
    `  files:    ${r.files} (${Math.round(r.bytes / 1024)} KB unpacked)`,
  ]
  const c = r.compatibility
  if (c.platforms.length) lines.push(`  systems:  ${c.platforms.join(', ')}`)
  for (const [k, v] of Object.entries(c.runtimes)) lines.push(`  needs:    ${k} ${v}`)
  if (r.tools.length) {
    lines.push(`  tools (${r.tools.length}${r.generated ? ', and more it makes as it runs' : ''}):`)
    for (const t of r.tools) lines.push(`    ${t.name}${t.description ? `  ${t.description}` : ''}`)
  }
  if (r.prompts.length) {
    lines.push(`  prompts (${r.prompts.length}):`)
    for (const p of r.prompts)
      lines.push(`    ${p.name}${p.description ? `  ${p.description}` : ''}`)
  }
  if (r.settings.length) lines.push('  settings (--set key=value):', ...r.settings.map(settingLine))
  if (r.refused) lines.push(`  not installable: ${r.refused}`)
  return lines
}

/** `--set key=value`, repeated keys collected as several values */
function valuesOf(list: string[]): Record<string, string | string[]> {
  const out: Record<string, string[]> = {}
  for (const item of list) {
    const eq = item.indexOf('=')
    if (eq <= 0) throw new UsageError(`--set takes key=value, not "${item}"`)
    ;(out[item.slice(0, eq)] ??= []).push(item.slice(eq + 1))
  }
  return Object.fromEntries(
    Object.entries(out).map(([k, v]) => [k, v.length === 1 ? (v[0] as string) : v]),
  )
}

/** `cairn mcp install <file.mcpb>` */
export async function installExtension(
  app: AppServices,
  file: string,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const configured = (n: string): boolean => n in app.settings.get().mcpServers
  const store = new ExtensionStore(app.dataDir)
  const review = await store.open({ path: file }, configured)
  out(extensionLines(review).join('\n'))
  const name = options.assistantFields.name ?? review.suggestedName
  let installed: Awaited<ReturnType<ExtensionStore['install']>> | null = null
  try {
    if (review.refused)
      throw new UsageError(`Cairn cannot install ${review.file}: ${review.refused}`)
    if (configured(name))
      throw new UsageError(`an MCP server named "${name}" exists already; give another with --name`)
    installed = await store.install(review.stageId, name, valuesOf(options.set))
    const entry = parseServerConfig(name, { ...installed.entry, disabled: true })
    app.secrets.setMcpValues(name, installed.secretValues)
    app.settings.updateSync((s) => {
      s.mcpServers = { ...s.mcpServers, [name]: entry as unknown as Record<string, unknown> }
    })
  } catch (e) {
    await store.discard(review.stageId)
    if (installed?.entry.extension) {
      app.secrets.setMcpValues(name, null)
      await store.remove(installed.entry.extension)
    }
    throw e
  }
  out(
    `\nInstalled "${name}" into ${join(store.root, installed.entry.extension ?? '')}, switched off.`,
  )
  if (!review.runtime.found)
    out(`${review.runtime.command} was not found on this computer: install it before enabling.`)
  out(`Check what it runs above, then start it with: cairn mcp enable ${name}`)
  return 0
}
