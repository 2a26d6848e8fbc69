/**
 * `cairn models list|add|remove`: the local GGUF models Cairn runs itself (the `local`
 * provider). Returns the exit code; what went wrong is said with what to do.
 */
import { ExpectedError } from '../core/errors'
import type { LocalModel } from '../../src-preload/contract/local-models'
import { formatBytes } from '../core/local-models/memory'
import type { AppServices } from '../services/host/app-services'
import { UsageError, type CliOptions } from './args'
import type { Streams } from './output'
import { jsonLine } from './terminal-text'

function source(m: LocalModel): string {
  return m.source.kind === 'file' ? m.source.path : `${m.source.repo}/${m.source.file}`
}

function modelLine(m: LocalModel): string {
  const quant = m.quantization ? ` ${m.quantization}` : ''
  const ctx = m.contextLength ? ` · ${m.contextLength} tokens` : ''
  return `${m.name}  ${formatBytes(m.size)}  ${m.architecture}${quant}${ctx}  ${source(m)}`
}

export async function modelsCommand(
  app: AppServices,
  args: string[],
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const [sub, ...rest] = args
  const out = (s: string): void => void streams.stdout.write(`${s}\n`)
  try {
    switch (sub) {
      case 'list':
      case undefined: {
        const models = app.models.list()
        if (options.json) out(jsonLine({ models, dir: app.models.dir }))
        else if (models.length === 0) out('No local models. Add one: cairn models add <file.gguf>')
        else for (const m of models) out(modelLine(m))
        return 0
      }
      case 'add': {
        const [file, ...extra] = rest
        if (!file || extra.length > 0)
          throw new UsageError(
            'cairn models add takes one GGUF file: cairn models add <file.gguf> [--name <name>]',
          )
        const added = await app.models.addFile(file, options.assistantFields.name)
        out(added.name)
        streams.stderr.write(
          `Added ${added.name} (${formatBytes(added.size)}, ${added.architecture}). Chat with it: cairn --provider local --model ${added.name} "Hello"\n`,
        )
        return 0
      }
      case 'pull': {
        const [repo, ...extra] = rest
        if (!repo || extra.length > 0)
          throw new UsageError(
            'cairn models pull takes one repository: cairn models pull <owner/name> [--file <name.gguf>] [--name <name>]',
          )
        return await pull(app, repo, options, streams)
      }
      case 'remove': {
        const [name, ...extra] = rest
        if (!name || extra.length > 0)
          throw new UsageError('cairn models remove takes one model name')
        const removed = await app.models.remove(name)
        streams.stderr.write(`Removed ${removed.name} and its file.\n`)
        return 0
      }
      default:
        throw new UsageError(`cairn models has no command "${sub}" (list, add, pull, remove)`)
    }
  } catch (e) {
    if (e instanceof ExpectedError) {
      streams.stderr.write(`cairn: ${e.message}\n`)
      return 1
    }
    throw e
  }
}

/** `cairn models pull`: the download's progress on stderr (every 10 %), its name on stdout. */
async function pull(
  app: AppServices,
  repo: string,
  options: CliOptions,
  streams: Streams,
): Promise<number> {
  const prepared = await app.downloads.prepare({
    repo,
    ...(options.file ? { file: options.file } : {}),
    ...(options.assistantFields.name ? { name: options.assistantFields.name } : {}),
  })
  const { f } = prepared
  streams.stderr.write(`Downloading ${f.repo}/${f.file} (${formatBytes(f.size)})…\n`)
  let told = -1
  const off = app.downloads.onChange((d) => {
    if (d.id !== prepared.id || d.state !== 'downloading') return
    const tenth = Math.floor((d.received / Math.max(1, d.total)) * 10)
    if (tenth <= told) return
    told = tenth
    streams.stderr.write(`  ${tenth * 10} % (${formatBytes(d.received)})\n`)
  })
  const stop = (): void => void app.downloads.pause(prepared.id)
  process.once('SIGINT', stop)
  try {
    const model = await app.downloads.run(prepared)
    streams.stdout.write(`${model.name}\n`)
    streams.stderr.write(
      `Checked (sha256) and added ${model.name}. Chat with it: cairn --provider local --model ${model.name} "Hello"\n`,
    )
    return 0
  } finally {
    off()
    process.off('SIGINT', stop)
  }
}
