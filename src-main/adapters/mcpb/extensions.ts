/**
 * Installed Claude Desktop extensions: `<dataDir>/extensions/<folder>/`, one folder per
 * installed bundle. A bundle opened for review is unpacked into `extensions/.staging/<id>/`
 * first (left there at most an hour); installing it moves that folder into place. The
 * manifest is read from the unpacked folder (1 MB at most) and checked with zod.
 */
import { randomUUID } from 'node:crypto'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import type { ExtensionReview } from '../../../src-preload/contract/mcpb'
import type {
  ExtensionSource,
  ExtensionValues,
  McpExtensions,
  StdioServerConfig,
} from '../../core/mcp-ports'
import { readManifest, type McpbManifest } from '../../core/mcpb/manifest'
import {
  entryFor,
  refusalOf,
  serverOf,
  settingsOf,
  suggestedName,
  valuesProblem,
  type PlanPlace,
} from '../../core/mcpb/install-plan'
import { ExpectedError } from '../../core/errors'
import { loginShellPath, resolveCommand, searchDirs } from '../mcp/command-resolver'
import { PRIVATE_DIR_MODE } from '../data-dir'
import { ExtensionRefused, unpackBundle, UNPACK_LIMITS, type UnpackLimits } from './unpack'

const STAGE_MS = 60 * 60_000
const MAX_MANIFEST_BYTES = 1024 * 1024
const FOLDER = /^[A-Za-z0-9][A-Za-z0-9._-]*$/

interface Staged {
  dir: string
  file: string
  manifest: McpbManifest
  until: number
}

export interface ExtensionStoreOptions {
  /** the program a runtime is looked up for, on this computer: its path, or null */
  findProgram?: (command: string) => Promise<string | null>
  limits?: UnpackLimits
  platform?: string
  home?: string
}

/** Looks a program up on the user's login-shell PATH, as a server's start does. */
async function findOnPath(command: string): Promise<string | null> {
  const dirs = searchDirs(await loginShellPath(), process.env['PATH'])
  const found = resolveCommand(command, dirs)
  return found.ok ? found.path : null
}

export class ExtensionStore implements McpExtensions {
  readonly root: string
  private readonly staging: string
  private readonly staged = new Map<string, Staged>()

  constructor(
    dataDir: string,
    private readonly opts: ExtensionStoreOptions = {},
  ) {
    this.root = path.join(path.resolve(dataDir), 'extensions')
    this.staging = path.join(this.root, '.staging')
  }

  async open(
    source: ExtensionSource,
    configured: (name: string) => boolean,
  ): Promise<ExtensionReview> {
    await this.sweep()
    const file = 'file' in source ? path.basename(source.file) : path.basename(source.path)
    const stageId = randomUUID()
    const dir = path.join(this.staging, stageId)
    await fs.promises.mkdir(this.staging, { recursive: true, mode: PRIVATE_DIR_MODE })
    const unpacked = await unpackBundle(
      'bytes' in source ? source.bytes : source.path,
      dir,
      file,
      this.opts.limits ?? UNPACK_LIMITS,
    )
    try {
      const manifest = await this.manifestIn(dir, file)
      const review = await this.review(manifest, dir, file, configured)
      this.staged.set(stageId, { dir, file, manifest, until: Date.now() + STAGE_MS })
      return { ...review, stageId, files: unpacked.files, bytes: unpacked.bytes }
    } catch (e) {
      await fs.promises.rm(dir, { recursive: true, force: true })
      throw e
    }
  }

  async install(
    stageId: string,
    name: string,
    values: ExtensionValues,
  ): Promise<{ entry: StdioServerConfig; secretValues: Record<string, string> }> {
    const s = this.stagedOr(stageId)
    const refused = refusalOf(s.manifest, this.platform())
    if (refused) throw new ExtensionRefused(s.file, refused)
    const problem = valuesProblem(settingsOf(s.manifest, this.place(s.dir)), values)
    if (problem)
      throw new ExpectedError('bad_request', `${s.file}: ${problem}.`, {
        details: { fields: { values: problem } },
      })
    const folder = await this.freeFolder(name)
    const dir = path.join(this.root, folder)
    await fs.promises.rename(s.dir, dir)
    this.staged.delete(stageId)
    const e = entryFor(s.manifest, this.place(dir), values)
    return {
      entry: { command: e.command, args: e.args, env: e.env, cwd: e.cwd, extension: folder },
      secretValues: e.secretValues,
    }
  }

  async discard(stageId: string): Promise<void> {
    const s = this.staged.get(stageId)
    this.staged.delete(stageId)
    if (s) await fs.promises.rm(s.dir, { recursive: true, force: true })
  }

  async remove(folder: string): Promise<void> {
    if (!FOLDER.test(folder)) return
    await fs.promises.rm(path.join(this.root, folder), { recursive: true, force: true })
  }

  private stagedOr(stageId: string): Staged {
    const s = this.staged.get(stageId)
    if (!s || s.until < Date.now())
      throw new ExpectedError(
        'not_found',
        'That extension was opened too long ago or installed already: open the file again.',
      )
    return s
  }

  private platform(): string {
    return this.opts.platform ?? process.platform
  }

  private place(dir: string): PlanPlace {
    return {
      dir,
      home: this.opts.home ?? os.homedir(),
      platform: this.platform(),
      separator: path.sep,
    }
  }

  private async manifestIn(dir: string, file: string): Promise<McpbManifest> {
    const at = path.join(dir, 'manifest.json')
    let stat: fs.Stats
    try {
      stat = await fs.promises.lstat(at)
    } catch {
      throw new ExtensionRefused(
        file,
        'it has no manifest.json at its top (it is not an MCPB bundle)',
      )
    }
    if (!stat.isFile() || stat.size > MAX_MANIFEST_BYTES)
      throw new ExtensionRefused(file, 'its manifest.json is not a file of at most 1 MB')
    let raw: unknown
    try {
      raw = JSON.parse(await fs.promises.readFile(at, 'utf8'))
    } catch (e) {
      throw new ExtensionRefused(
        file,
        `its manifest.json is not valid JSON (${(e as Error).message})`,
      )
    }
    const read = readManifest(raw)
    if ('problem' in read) throw new ExtensionRefused(file, `its manifest.json: ${read.problem}`)
    const entry = path.resolve(dir, read.manifest.server.entry_point)
    const inside = entry.startsWith(dir + path.sep)
    const isFile = inside && (await fs.promises.lstat(entry).catch(() => null))?.isFile() === true
    if (!isFile)
      throw new ExtensionRefused(
        file,
        `its server's entry point "${read.manifest.server.entry_point}" is not a file in the bundle`,
      )
    return read.manifest
  }

  private async review(
    m: McpbManifest,
    dir: string,
    file: string,
    configured: (name: string) => boolean,
  ): Promise<Omit<ExtensionReview, 'stageId' | 'files' | 'bytes'>> {
    const platform = this.platform()
    const server = serverOf(m, platform)
    const refused = refusalOf(m, platform)
    const find = this.opts.findProgram ?? findOnPath
    const name = suggestedName(m)
    return {
      file,
      manifestVersion: m.manifest_version ?? m.dxt_version ?? '',
      name: m.name,
      displayName: m.display_name ?? null,
      version: m.version,
      description: m.description,
      author: { name: m.author.name, email: m.author.email ?? null, url: m.author.url ?? null },
      repository: m.repository?.url ?? null,
      homepage: m.homepage ?? null,
      license: m.license ?? null,
      entryPoint: m.server.entry_point,
      runtime: {
        type: m.server.type,
        command: server.command,
        found: refused ? null : await find(server.command),
      },
      tools: (m.tools ?? []).map((t) => ({ name: t.name, description: t.description ?? '' })),
      prompts: (m.prompts ?? []).map((p) => ({ name: p.name, description: p.description ?? '' })),
      generated: m.tools_generated === true || m.prompts_generated === true,
      compatibility: {
        platforms: m.compatibility?.platforms ?? [],
        runtimes: m.compatibility?.runtimes ?? {},
        claudeDesktop: m.compatibility?.claude_desktop ?? null,
      },
      settings: settingsOf(m, this.place(dir)),
      command: server.command,
      args: server.args,
      envNames: Object.keys(server.env),
      refused,
      suggestedName: name,
      exists: configured(name),
    }
  }

  /** a folder of `extensions/` for the server `name`, not taken yet */
  private async freeFolder(name: string): Promise<string> {
    const base = name.replace(/[^A-Za-z0-9._-]+/g, '_').replace(/^[^A-Za-z0-9]+/, '') || 'extension'
    await fs.promises.mkdir(this.root, { recursive: true, mode: PRIVATE_DIR_MODE })
    for (let i = 1; ; i++) {
      const folder = i === 1 ? base : `${base}-${i}`
      if (!fs.existsSync(path.join(this.root, folder))) return folder
    }
  }

  /** bundles opened for review and left: removed after an hour (this process's or an earlier one's) */
  private async sweep(): Promise<void> {
    const now = Date.now()
    for (const [id, s] of this.staged) if (s.until < now) await this.discard(id)
    const left = await fs.promises.readdir(this.staging).catch(() => [] as string[])
    for (const id of left) {
      if (this.staged.has(id)) continue
      const at = path.join(this.staging, id)
      const stat = await fs.promises.stat(at).catch(() => null)
      if (stat && stat.mtimeMs < now - STAGE_MS)
        await fs.promises.rm(at, { recursive: true, force: true })
    }
  }
}
