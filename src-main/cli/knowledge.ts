/**
 * `cairn knowledge add|status|search|remove|reindex`: the knowledge base of a project from
 * the terminal. `add` and `reindex` index in the index's worker and wait for it, with
 * progress on stderr; `search` prints each chunk with its file, place and score.
 */
import {
  formatLocation,
  type KnowledgeHit,
  type KnowledgeOwner,
  type KnowledgeSource,
} from '../../src-preload/contract/knowledge'
import type { KnowledgeBase } from '../core/service-ports'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import { oneLine, type Streams } from './output'
import { jsonLine, stripControls, writeOwn } from './terminal-text'

const SUBCOMMANDS = 'add, status, search, remove or reindex'

/** what every subcommand works with */
interface Cmd {
  kb: KnowledgeBase
  owner: KnowledgeOwner | undefined
  options: CliOptions
  streams: Streams
  name: (owner: KnowledgeOwner) => string
}

export async function knowledgeCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, ...rest] = args
  const kb = app.knowledge()
  try {
    const owner = ownerOf(app, options)
    const cmd: Cmd = { kb, owner, options, streams, name: (o) => ownerName(app, o) }
    switch (sub) {
      case 'add':
        return await add(cmd, rest)
      case 'status':
        return status(cmd)
      case 'search':
        return await search(cmd, rest)
      case 'remove':
        return await remove(cmd, rest)
      case 'reindex':
        return await reindex(cmd)
      default:
        throw new UsageError(
          sub === undefined
            ? `knowledge needs a command: ${SUBCOMMANDS}`
            : `knowledge has no command "${sub}" (it has ${SUBCOMMANDS})`,
        )
    }
  } finally {
    await kb.close()
  }
}

/** The project `--project` names (by name or id; `not_found` when there is none). */
function ownerOf(app: AppServices, options: CliOptions): KnowledgeOwner | undefined {
  if (options.project === undefined) return undefined
  const name = options.project.trim()
  if (name === '') throw new UsageError('--project takes the name of a project')
  return { kind: 'project', id: app.projects.require(name).id }
}

/** `project Boats`, `assistant Helper`: whose sources, by name when it still has one */
function ownerName(app: AppServices, owner: KnowledgeOwner): string {
  const name =
    owner.kind === 'project'
      ? app.projects.find(owner.id)?.name
      : app.assistants.get(owner.id)?.name
  return `${owner.kind} ${stripControls(name ?? owner.id)}`
}

async function add({ kb, owner, streams, name }: Cmd, args: string[]): Promise<number> {
  if (!owner || args.length === 0)
    throw new UsageError('usage: cairn knowledge add <path>… --project <name>')
  const stop = showProgress(kb, streams)
  try {
    const added: KnowledgeSource[] = []
    for (const path of args) added.push(await kb.addSource(owner, path))
    await kb.whenIdle()
    const now = kb.sources(owner).filter((s) => added.some((a) => a.id === s.id))
    for (const s of now) streams.stdout.write(`${summary(s, name)}\n`)
    return 0
  } finally {
    stop()
  }
}

function status({ kb, owner, options, streams, name }: Cmd): number {
  const sources = kb.sources(owner)
  if (options.json) {
    for (const s of sources) streams.stdout.write(`${jsonLine({ ...s, files: kb.files(s.id) })}\n`)
    return 0
  }
  if (sources.length === 0) {
    streams.stdout.write('No knowledge sources yet: cairn knowledge add <path> --project <name>\n')
    return 0
  }
  for (const s of sources) {
    streams.stdout.write(`${summary(s, name)}\n`)
    for (const f of kb.files(s.id)) {
      if (f.state === 'indexed') continue
      streams.stdout.write(
        `  ${f.state}  ${stripControls(f.path)}: ${stripControls(f.reason ?? '')}\n`,
      )
    }
  }
  return 0
}

function summary(s: KnowledgeSource, name: Cmd['name']): string {
  const c = s.counts
  const parts = [`${c.indexed} indexed (${s.chunks} chunks)`]
  if (c.skipped > 0) parts.push(`${c.skipped} skipped`)
  if (c.failed > 0) parts.push(`${c.failed} failed`)
  const problem = s.problem ? ` — ${stripControls(s.problem)}` : ''
  return `${stripControls(s.path)} [${name(s.owner)}]: ${parts.join(', ')}${problem}`
}

async function search({ kb, owner, options, streams }: Cmd, args: string[]): Promise<number> {
  const query = args.join(' ').trim()
  if (query === '')
    throw new UsageError('usage: cairn knowledge search <query> [--project <name>] [--json]')
  const owners = owner ? [owner] : distinctOwners(kb.sources())
  const results = await Promise.all(owners.map((o) => kb.search(o, query)))
  const hits = results
    .flatMap((r) => r.hits)
    .sort((a, b) => b.score - a.score)
    .slice(0, 10)
  const fallback = results.find((r) => r.fallback !== null)?.fallback
  if (fallback) streams.stderr.write(`${stripControls(fallback)}\n`)
  if (options.json) {
    for (const h of hits) streams.stdout.write(`${jsonLine(h)}\n`)
    return 0
  }
  if (hits.length === 0)
    streams.stderr.write(`Nothing in the knowledge sources matches "${stripControls(query)}".\n`)
  for (const h of hits) streams.stdout.write(hitText(h))
  return 0
}

function hitText(h: KnowledgeHit): string {
  const where = `${stripControls(h.file)} (${formatLocation(h.location)})`
  return `${where}  score ${h.score.toFixed(3)}\n  ${stripControls(oneLine(h.text, 240))}\n\n`
}

function distinctOwners(sources: readonly KnowledgeSource[]): KnowledgeOwner[] {
  const seen = new Map<string, KnowledgeOwner>()
  for (const s of sources) seen.set(`${s.owner.kind}:${s.owner.id}`, s.owner)
  return [...seen.values()]
}

async function remove({ kb, owner, streams }: Cmd, args: string[]): Promise<number> {
  if (args.length === 0)
    throw new UsageError('usage: cairn knowledge remove <path> [--project <name>]')
  for (const path of args) {
    await kb.removeSource(path, owner)
    streams.stdout.write(`Removed ${stripControls(path)} and its chunks.\n`)
  }
  return 0
}

async function reindex({ kb, owner, streams, name }: Cmd): Promise<number> {
  const stop = showProgress(kb, streams)
  try {
    const sources = kb.sources(owner)
    for (const s of sources) await kb.reindex(s.id)
    for (const s of kb.sources(owner)) streams.stdout.write(`${summary(s, name)}\n`)
    return 0
  } finally {
    stop()
  }
}

/** `indexing 120/400 <file>` on stderr while a terminal shows it; nothing on a pipe. */
function showProgress(kb: KnowledgeBase, streams: Streams): () => void {
  const tty = streams.stderr.isTTY
  if (!tty) return () => {}
  let last = 0
  const off = kb.onChange(() => {
    const p = kb.progress()
    const now = Date.now()
    if (!p.running || now - last < 200) return
    last = now
    writeOwn(streams.stderr, `\r\x1b[Kindexing ${p.done}/${p.total}`)
  })
  return () => {
    off()
    writeOwn(streams.stderr, '\r\x1b[K')
  }
}
