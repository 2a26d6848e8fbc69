import type { SearchHit, SessionRecord, StoredMessage } from '../../src-preload/contract/dto'
import { deleteSessionLogs } from '../adapters/logs/turn-log'
import { openBranch } from '../core/agent/history-tree'
import { forkAt, messageRef } from '../services/turns/branch-start'
import { DEFAULT_ASSISTANT_ID } from '../../src-preload/contract/assistants'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'
import { resolveSessionId } from './session-id'
import { treeLines } from './session-tree'
import { jsonLine } from './terminal-text'
import fs from 'node:fs'
import path from 'node:path'
import { writeFileAtomic } from '../adapters/atomic-file'
import { attachmentsFolder, exportWithFiles } from '../services/sessions/export-files'
import { attachmentFacts } from '../core/attachments/describe'

function when(ms: number): string {
  return new Date(ms).toISOString().replace('T', ' ').slice(0, 16)
}

function sessionLine(s: SessionRecord): string {
  const pin = s.pinned ? '★ ' : ''
  // the assistant, unless it is the default one
  const assistant =
    s.assistant && s.assistant.id !== DEFAULT_ASSISTANT_ID
      ? ` · ${s.assistant.name}${s.assistant.deleted ? ' (deleted)' : ''}`
      : ''
  return `${s.id}  ${when(s.updatedAt)}  ${String(s.messageCount).padStart(4)} msgs  ${s.model ?? '-'}${assistant}  ${pin}${s.title || '(untitled)'}`
}

function messageBlock(m: StoredMessage): string {
  if (m.kind === 'summary') {
    const range = m.covers ? `messages ${m.covers.from}–${m.covers.to}` : 'everything before it'
    return `[${m.seq}] summary of ${range} (sent to the model in their place; they are kept above)\n${m.content}`
  }
  const pin = m.pinned ? ' (kept in context)' : ''
  const served = m.servedModel ? ` (answered by ${m.servedModel}, asked for ${m.model ?? '?'})` : ''
  const head = `[${m.seq}] ${m.role}${m.status !== 'complete' ? ` (${m.status})` : ''}${m.failureKind ? ` [${m.failureKind}]` : ''}${served}${pin}`
  const calls = (m.toolCalls ?? []).map((c) => `  → ${c.name} ${c.arguments}`).join('\n')
  const files = (m.parts ?? [])
    .flatMap((p) => (p.type === 'attachment' ? [`  📎 ${p.name} (${attachmentFacts(p)})`] : []))
    .join('\n')
  return [head, m.content, files, calls].filter(Boolean).join('\n')
}

/**
 * Every attachment of a session (`show --json`): name, media type, size and the sha256 of
 * the file as the user gave it, and for documents the characters extracted.
 */
function attachmentList(messages: StoredMessage[]): unknown[] {
  return messages.flatMap((m) =>
    (m.parts ?? []).flatMap((p) =>
      p.type === 'attachment'
        ? [
            {
              messageId: m.id,
              seq: m.seq,
              name: p.name,
              kind: p.kind,
              mediaType: p.source.mediaType,
              size: p.source.bytes,
              sha256: p.source.sha256,
              ...(p.kind === 'document' ? { chars: p.chars ?? 0, pages: p.pages ?? null } : {}),
              ...(p.kind === 'image'
                ? {
                    sent: {
                      mediaType: p.mediaType,
                      bytes: p.bytes,
                      width: p.width,
                      height: p.height,
                    },
                  }
                : {}),
            },
          ]
        : [],
    ),
  )
}

function bySession(hits: SearchHit[]): Map<string, SearchHit[]> {
  const groups = new Map<string, SearchHit[]>()
  for (const h of hits) {
    const group = groups.get(h.sessionId)
    if (group) group.push(h)
    else groups.set(h.sessionId, [h])
  }
  return groups
}

/** The session id argument: the whole id or a unique beginning of it. */
function need(app: AppServices, id: string | undefined, what: string): string {
  if (!id) throw new UsageError(`cairn sessions ${what} needs a session id`)
  return resolveSessionId(app, id)
}

/**
 * `sessions export`: to stdout (JSON with its files embedded; Markdown naming them), or with
 * `--out <file>` into that file, a Markdown export's files into a folder beside it.
 */
async function exportCommand(
  app: AppServices,
  id: string,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const format = options.format ?? 'md'
  if (!options.out) {
    streams.stdout.write((await exportWithFiles(app, id, format)).content)
    return 0
  }
  const target = path.resolve(options.out)
  const folder = attachmentsFolder(path.basename(target))
  const exported = await exportWithFiles(app, id, format, folder)
  for (const f of exported.files) {
    const file = path.join(path.dirname(target), f.path)
    await fs.promises.mkdir(path.dirname(file), { recursive: true })
    await writeFileAtomic(file, f.data, { mode: 0o644 })
  }
  await writeFileAtomic(target, exported.content, { mode: 0o644 })
  streams.stderr.write(
    `Wrote ${target}${exported.files.length > 0 ? ` and ${exported.files.length} attached ${exported.files.length === 1 ? 'file' : 'files'} in ${path.join(path.dirname(target), folder)}` : ''}.\n`,
  )
  return 0
}

/** `sessions search`: hits grouped by session, or JSON */
function searchCommand(
  app: AppServices,
  text: string,
  options: CliOptions,
  out: (s: string) => void,
): number {
  if (!text) throw new UsageError('cairn sessions search needs some text to look for')
  const hits = app.store.search(text, { order: 'ranked', limit: 50 })
  if (options.json) out(jsonLine({ hits }))
  else if (hits.length === 0) out('No matches.')
  else
    // one heading per session, its hits beneath (in the order found)
    for (const [sessionId, group] of bySession(hits)) {
      out(`${sessionId}  ${group[0]!.sessionTitle || '(untitled)'}`)
      for (const h of group) {
        const where = h.seq === null ? 'title' : `[${h.seq}] ${h.role ?? ''}`
        out(`    ${where}: ${h.snippet.replace(/\s+/g, ' ')}`)
      }
    }
  return 0
}

/** `cairn sessions list|show|fork|search|export|import|delete`. Returns the exit code. */
export async function sessionsCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, ...rest] = args
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  const missing = (id: string): number => {
    streams.stderr.write(
      `There is no session "${id}". \`cairn sessions list\` shows the sessions.\n`,
    )
    return 1
  }
  switch (sub) {
    case 'list': {
      const { sessions, total } = app.store.listSessions({ limit: 200 })
      if (options.json) out(jsonLine({ total, sessions }))
      else if (sessions.length === 0) out('No sessions yet.')
      else for (const s of sessions) out(sessionLine(s))
      return 0
    }
    case 'show': {
      const id = need(app, rest[0], 'show')
      const session = app.store.getSession(id)
      if (!session) return missing(id)
      const messages = app.store.listMessages(id)
      const branch = openBranch(messages, session.leafSeq)
      // the whole tree (each message with its id and parent) and the open branch's numbers
      if (options.json) {
        const openSeqs = branch.map((m) => m.seq)
        out(
          jsonLine({
            session,
            messages,
            openBranch: openSeqs,
            attachments: attachmentList(messages),
          }),
        )
      } else if (options.tree) {
        out(sessionLine(session))
        for (const l of treeLines(messages, session.leafSeq, options.raw)) out(l)
      } else {
        out(sessionLine(session))
        const others = messages.length - branch.length
        if (others > 0)
          out(`(the open branch; ${others} message(s) on other branches: --tree shows them)`)
        for (const m of branch) out(`\n${messageBlock(m)}`)
      }
      return 0
    }
    case 'fork': {
      const id = need(app, rest[0], 'fork')
      if (!app.store.getSession(id)) return missing(id)
      if (!options.at) throw new UsageError('cairn sessions fork needs --at <message>')
      const fork = forkAt(app.store, id, messageRef(options.at))
      if (options.json) out(jsonLine({ session: fork }))
      else out(`New session ${fork.id}: ${fork.title}`)
      return 0
    }
    case 'search':
      return searchCommand(app, rest.join(' ').trim(), options, out)
    case 'export': {
      const id = need(app, rest[0], 'export')
      if (!app.store.getSession(id)) return missing(id)
      return exportCommand(app, id, options, streams)
    }
    case 'import': {
      const { importCommand } = await import('./import-command')
      return importCommand(app, rest[0], options, streams)
    }
    case 'delete': {
      const id = need(app, rest[0], 'delete')
      if (!app.store.deleteSession(id)) return missing(id)
      await deleteSessionLogs(app.dataDir, id)
      out(`Deleted session ${id}.`)
      return 0
    }
    default:
      throw new UsageError(
        sub
          ? `unknown sessions command "${sub}"`
          : 'cairn sessions needs a command: list, show, fork, search, export, import or delete',
      )
  }
}
