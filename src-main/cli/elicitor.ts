/**
 * A server's question during a tool call (MCP elicitation), asked on the terminal: the
 * server and its message, then each field in turn with its default in brackets (Enter takes
 * it), asked again until it fits; then the answer is sent. First the user may decline or
 * cancel instead. A URL question shows the address and asks whether to open it; yes opens it
 * in the browser (`BROWSER` when set, else the system's, as `cairn mcp login` does) and
 * accepts, so the server waits for what happens there.
 *
 * Without a terminal nobody can be asked: with `--approve all` a form whose required fields
 * all have defaults is accepted with its defaults; anything else is declined, and stderr
 * says why. Everything the server wrote goes through `stripControls`.
 */
import { createInterface, type Interface } from 'node:readline'
import {
  checkElicitation,
  elicitationFields,
  requiredHaveDefaults,
  type ElicitAnswer,
  type ElicitContent,
  type ElicitField,
  type ElicitRaw,
} from '../../src-preload/contract/elicitation'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import type { Elicitor } from '../core/ports'
import { browserAddressProblem, openInBrowser } from '../adapters/mcp/browser-opener'
import { ask } from './approver'
import type { ApproveMode } from './args'
import { stripControls } from './terminal-text'

/** the defaults of a form, checked like a typed answer */
function defaultsAnswer(fields: readonly ElicitField[]): ElicitContent | null {
  const withDefaults = fields.filter((f) => f.default !== undefined)
  const raw: ElicitRaw = {}
  for (const f of withDefaults) {
    const d = f.default!
    raw[f.name] = typeof d === 'number' ? String(d) : d
  }
  const checked = checkElicitation(withDefaults, raw)
  return checked.ok ? checked.content : null
}

function shownDefault(f: ElicitField): string {
  const d = f.default
  if (d === undefined) return ''
  if (f.kind === 'boolean') return d === true ? 'y' : 'n'
  const label = (v: string): string => f.options.find((o) => o.value === v)?.label ?? v
  if (Array.isArray(d)) return d.map(label).join(', ')
  return f.kind === 'choice' ? label(String(d)) : String(d)
}

/** what the user typed for one field, as the form holds it; null: not understood */
function readTyped(f: ElicitField, typed: string): ElicitRaw[string] | null {
  const t = typed.trim()
  if (f.kind === 'boolean') {
    if (/^(y|yes|true)$/i.test(t)) return true
    if (/^(n|no|false)$/i.test(t)) return false
    return null
  }
  const pick = (s: string): string | null => {
    const n = Number(s)
    if (Number.isInteger(n) && n >= 1 && n <= f.options.length) return f.options[n - 1]!.value
    const hit = f.options.find((o) => o.value === s || o.label.toLowerCase() === s.toLowerCase())
    return hit ? hit.value : null
  }
  if (f.kind === 'choice') return t === '' ? '' : pick(t)
  if (f.kind === 'multi') {
    if (t === '') return []
    const picked = t.split(',').map((s) => pick(s.trim()))
    return picked.includes(null) ? null : (picked as string[])
  }
  return typed
}

function fieldPrompt(f: ElicitField): string {
  const lines: string[] = []
  const head = `${stripControls(f.label)}${f.required ? ' (required)' : ''}`
  lines.push(f.description ? `${head} — ${stripControls(f.description).replace(/\n/g, ' ')}` : head)
  if (f.kind === 'choice' || f.kind === 'multi') {
    f.options.forEach((o, i) => lines.push(`    ${i + 1}) ${stripControls(o.label)}`))
  }
  const how =
    f.kind === 'boolean'
      ? ' [y/n]'
      : f.kind === 'multi'
        ? ' (numbers, separated by commas)'
        : f.kind === 'choice'
          ? ' (number)'
          : f.format
            ? ` (${f.format})`
            : ''
  const def = shownDefault(f)
  return `  ${lines.join('\n')}\n  ${how.trim() ? how.trim() + ' ' : ''}${def ? `[${stripControls(def)}] ` : ''}> `
}

export function terminalElicitor(
  input: NodeJS.ReadStream,
  output: NodeJS.WriteStream,
  onInterrupt: () => void,
  approve: ApproveMode | undefined,
): Elicitor {
  return {
    async request(req: ElicitationRequestEvent, signal: AbortSignal): Promise<ElicitAnswer> {
      const read = req.mode === 'form' ? elicitationFields(req.requestedSchema) : null
      if (!input.isTTY || !output.isTTY) return answerWithoutTerminal(req, read, approve, output)
      if (read && !read.ok) {
        output.write(`Declined ${stripControls(req.server)}'s question: ${read.error}.\n`)
        return { action: 'decline' }
      }
      const rl = createInterface({ input, output, terminal: true })
      rl.on('SIGINT', onInterrupt)
      try {
        output.write(`\n${stripControls(req.server)} asks: ${stripControls(req.message)}\n`)
        // only a web address is opened (as in the window)
        const canOpen = req.mode === 'url' && browserAddressProblem(req.url ?? '', 'page') === null
        if (req.mode === 'url') {
          output.write(`  address: ${stripControls(req.url ?? '')}\n`)
          if (!canOpen) output.write('  This is not a web address; it cannot be opened.\n')
        }
        const refused = await askWhetherToAnswer(rl, output, req, canOpen, signal)
        if (refused) return refused
        if (req.mode === 'url') return await openAddress(req.url ?? '', output)
        return await askFields(rl, output, read?.ok ? read.fields : [], signal)
      } finally {
        rl.close()
      }
    },
  }
}

type FieldsRead = ReturnType<typeof elicitationFields> | null

/**
 * Nobody to ask: with `--approve all` a form whose required fields all have defaults is
 * accepted with them; anything else is declined, saying why.
 */
function answerWithoutTerminal(
  req: ElicitationRequestEvent,
  read: FieldsRead,
  approve: ApproveMode | undefined,
  output: NodeJS.WriteStream,
): ElicitAnswer {
  const server = stripControls(req.server)
  if (approve === 'all' && read?.ok && requiredHaveDefaults(read.fields)) {
    const content = defaultsAnswer(read.fields)
    if (content) {
      output.write(`Answered ${server}'s question with its defaults (--approve all).\n`)
      return { action: 'accept', content }
    }
  }
  const why =
    req.mode === 'url'
      ? 'it asks to open an address'
      : approve === 'all'
        ? 'a required field has no default'
        : 'use --approve all to accept a form whose required fields all have defaults'
  output.write(`Declined ${server}'s question: there is no terminal to ask it on (${why}).\n`)
  return { action: 'decline' }
}

/** Asks until the user answers: null to go on, or their decline or cancel. */
async function askWhetherToAnswer(
  rl: Interface,
  output: NodeJS.WriteStream,
  req: ElicitationRequestEvent,
  canOpen: boolean,
  signal: AbortSignal,
): Promise<ElicitAnswer | null> {
  const question =
    req.mode === 'form'
      ? 'Answer? [Y]es / [d]ecline / [c]ancel: '
      : canOpen
        ? 'Open it in your browser? [y]es / [d]ecline / [c]ancel: '
        : '[d]ecline / [c]ancel: '
  for (;;) {
    const go = (await ask(rl, question, signal)).trim().toLowerCase()
    if (go === 'd' || go === 'decline') return { action: 'decline' }
    if (go === 'c' || go === 'cancel') return { action: 'cancel' }
    if (req.mode === 'url' && !canOpen) {
      output.write('Please answer d or c.\n')
      continue
    }
    if (go === 'y' || go === 'yes' || (go === '' && req.mode === 'form')) return null
    output.write('Please answer y, d or c.\n')
  }
}

/** opens the address in the browser and accepts: the server waits for what happens there */
async function openAddress(url: string, output: NodeJS.WriteStream): Promise<ElicitAnswer> {
  try {
    await openInBrowser(url, { purpose: 'page' })
    output.write('  Opened in your browser.\n')
  } catch (e) {
    output.write(`  ${stripControls((e as Error).message)}\n`)
  }
  return { action: 'accept' }
}

/** Asks each field in turn, again until it fits; the checked answer. */
async function askFields(
  rl: Interface,
  output: NodeJS.WriteStream,
  fields: readonly ElicitField[],
  signal: AbortSignal,
): Promise<ElicitAnswer> {
  const raw: ElicitRaw = {}
  for (const f of fields) raw[f.name] = await askField(rl, output, f, signal)
  const all = checkElicitation(fields, raw)
  return all.ok ? { action: 'accept', content: all.content } : { action: 'decline' }
}

async function askField(
  rl: Interface,
  output: NodeJS.WriteStream,
  f: ElicitField,
  signal: AbortSignal,
): Promise<ElicitRaw[string]> {
  for (;;) {
    const typed = await ask(rl, fieldPrompt(f), signal)
    const value =
      typed.trim() === '' && f.default !== undefined
        ? typeof f.default === 'number'
          ? String(f.default)
          : f.default
        : readTyped(f, typed)
    const checked = value === null ? null : checkElicitation([f], { [f.name]: value })
    if (checked?.ok) return value!
    output.write(
      `  ${checked && !checked.ok ? (checked.errors[f.name] ?? 'Not understood.') : 'Not understood.'}\n`,
    )
  }
}
