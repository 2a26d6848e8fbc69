/**
 * The local models: GGUF files in `<data dir>/models/`, listed in `models/index.json` (name,
 * file, size, sha256, where it came from, what its header says). A model is listed only once
 * its file is whole and checked: files are copied or downloaded under a `.partial` name,
 * hashed, checked as GGUF and only then renamed and added. Changes to the index are made
 * under a lock file, so the CLI and a window can add and remove at the same time.
 */
import { createHash } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { pipeline } from 'node:stream/promises'
import { z } from 'zod'
import { writeFileAtomic } from '../atomic-file'
import { PRIVATE_DIR_MODE, PRIVATE_FILE_MODE } from '../data-dir'
import { withFileLock } from '../settings/file-lock'
import { localModelSchema, type LocalModel } from '../../../src-preload/contract/local-models'
import { ExpectedError } from '../../core/errors'
import type { LocalModelStore } from '../../core/service-ports'
import { readGguf, type GgufSummary } from './gguf'

const indexFile = z.object({ version: z.literal(1), models: z.array(localModelSchema) })

/** A name in use (`conflict`), a model that is not there (`not_found`), a name that cannot be one or a damaged index (`bad_request`). */
export class ModelIndexError extends ExpectedError<'conflict' | 'not_found' | 'bad_request'> {
  constructor(message: string, code: 'conflict' | 'not_found' | 'bad_request') {
    super(code, message)
    this.name = 'ModelIndexError'
  }
}

const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,99}$/

/** A model's name from a file name: `Qwen3-0.6B-Q4_K_M.gguf` → `Qwen3-0.6B-Q4_K_M`. */
export function nameFromFile(file: string): string {
  const base = path.basename(file).replace(/\.gguf$/i, '')
  const clean = base.replace(/[^A-Za-z0-9._-]+/g, '-').replace(/^[^A-Za-z0-9]+/, '')
  return clean.slice(0, 100) || 'model'
}

export function checkModelName(name: string): string {
  if (!NAME.test(name)) {
    throw new ModelIndexError(
      `"${name}" cannot be a model's name: use letters, digits, ".", "_" and "-" (up to 100, starting with a letter or digit).`,
      'bad_request',
    )
  }
  return name
}

export class ModelIndex implements LocalModelStore {
  readonly dir: string
  private readonly indexPath: string

  constructor(dataDir: string) {
    this.dir = path.join(path.resolve(dataDir), 'models')
    this.indexPath = path.join(this.dir, 'index.json')
  }

  /** The models whose file is still there, in the order they were added. */
  list(): LocalModel[] {
    return this.read().filter((m) => fs.existsSync(this.filePath(m)))
  }

  get(name: string): LocalModel | null {
    return this.list().find((m) => m.name === name) ?? null
  }

  filePath(m: Pick<LocalModel, 'file'>): string {
    return path.join(this.dir, m.file)
  }

  private read(): LocalModel[] {
    let raw: string
    try {
      raw = fs.readFileSync(this.indexPath, 'utf8')
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code === 'ENOENT') return []
      throw e
    }
    let parsed: unknown
    try {
      parsed = JSON.parse(raw)
    } catch {
      parsed = null
    }
    const checked = indexFile.safeParse(parsed)
    if (!checked.success) {
      throw new ModelIndexError(
        `${this.indexPath} is damaged (${checked.error?.issues[0]?.message ?? 'not JSON'}). ` +
          'Move it aside; the model files beside it can be added again with `cairn models add`.',
        'bad_request',
      )
    }
    return checked.data.models
  }

  ensureDir(): void {
    fs.mkdirSync(this.dir, { recursive: true, mode: PRIVATE_DIR_MODE })
  }

  private async change<T>(fn: (models: LocalModel[]) => T): Promise<T> {
    this.ensureDir()
    return withFileLock(`${this.indexPath}.lock`, async () => {
      const models = this.read()
      const result = fn(models)
      await writeFileAtomic(this.indexPath, `${JSON.stringify({ version: 1, models }, null, 2)}\n`)
      return result
    })
  }

  /** A partial file's path: a copy (by its file name) or a download (by its sha256). */
  partialPath(key: string): string {
    return path.join(this.dir, `${key}.partial`)
  }

  async addDownloaded(
    partial: string,
    entry: Pick<LocalModel, 'name' | 'sha256' | 'source'>,
  ): Promise<LocalModel> {
    checkModelName(entry.name)
    const summary = await readGguf(partial)
    return this.publish(partial, { ...entry, file: this.freeFileName(entry.name) }, summary)
  }

  /** The file name a new model is kept under (never an existing file). */
  freeFileName(name: string): string {
    const taken = new Set(this.read().map((m) => m.file))
    let file = `${name}.gguf`
    for (let i = 2; taken.has(file) || fs.existsSync(path.join(this.dir, file)); i++)
      file = `${name}-${i}.gguf`
    return file
  }

  /**
   * Lists a whole, checked file that sits under its `.partial` name: renames it and adds it.
   * The caller has hashed it; a name in use is refused (the file is left for the caller).
   */
  async publish(
    partial: string,
    entry: Pick<LocalModel, 'name' | 'file' | 'sha256' | 'source'>,
    summary: GgufSummary,
  ): Promise<LocalModel> {
    const model: LocalModel = {
      ...entry,
      size: summary.size,
      architecture: summary.architecture,
      contextLength: summary.contextLength,
      chatTemplate: summary.chatTemplate,
      quantization: summary.quantization,
      addedAt: Date.now(),
    }
    return this.change((models) => {
      if (models.some((m) => m.name === model.name && fs.existsSync(this.filePath(m)))) {
        throw new ModelIndexError(
          `There is already a model named "${model.name}". Choose another name (--name), or remove it first.`,
          'conflict',
        )
      }
      fs.renameSync(partial, this.filePath(model))
      const kept = models.filter((m) => m.name !== model.name)
      models.length = 0
      models.push(...kept, model)
      return model
    })
  }

  /** Copies a GGUF file from disk into the models folder and lists it. */
  async addFile(source: string, name?: string): Promise<LocalModel> {
    const from = path.resolve(source)
    // a file that is not GGUF, or is cut short, is refused before anything is copied
    await readGguf(from)
    const chosen = checkModelName(name ?? nameFromFile(from))
    if (this.get(chosen)) {
      throw new ModelIndexError(
        `There is already a model named "${chosen}". Choose another name (--name), or remove it first.`,
        'conflict',
      )
    }
    this.ensureDir()
    const file = this.freeFileName(chosen)
    const partial = this.partialPath(file)
    const hash = createHash('sha256')
    try {
      await pipeline(
        fs.createReadStream(from),
        async function* (chunks: AsyncIterable<Buffer>) {
          for await (const chunk of chunks) {
            hash.update(chunk)
            yield chunk
          }
        },
        fs.createWriteStream(partial, { mode: PRIVATE_FILE_MODE }),
      )
      // the copy is what gets loaded: it is checked again, not the source
      const copied = await readGguf(partial)
      return await this.publish(
        partial,
        { name: chosen, file, sha256: hash.digest('hex'), source: { kind: 'file', path: from } },
        copied,
      )
    } finally {
      fs.rmSync(partial, { force: true })
    }
  }

  /** Removes a model: its entry and its file. */
  async remove(name: string): Promise<LocalModel> {
    return this.change((models) => {
      const i = models.findIndex((m) => m.name === name)
      const found = models[i]
      if (i < 0 || !found) {
        throw new ModelIndexError(
          `There is no local model "${name}". \`cairn models list\` shows them.`,
          'not_found',
        )
      }
      models.splice(i, 1)
      fs.rmSync(this.filePath(found), { force: true })
      return found
    })
  }
}
