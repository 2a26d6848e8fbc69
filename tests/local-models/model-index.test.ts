/**
 * The local models' index: a real GGUF file is copied in, hashed and listed; files that are
 * not GGUF or are cut short are refused with what to do, and nothing half-copied is listed.
 */
import {
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ModelFileError, readGguf } from '../../src-main/adapters/local-models/gguf'
import {
  ModelIndex,
  ModelIndexError,
  nameFromFile,
} from '../../src-main/adapters/local-models/model-index'
import { TINY_MODEL, TINY_SHA256 } from './support'

describe('local model index', () => {
  let dir: string
  let index: ModelIndex
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'cairn-models-'))
    index = new ModelIndex(dir)
  })
  afterEach(() => rmSync(dir, { recursive: true, force: true }))

  it('reads what the GGUF header says', async () => {
    const s = await readGguf(TINY_MODEL)
    expect(s).toMatchObject({
      architecture: 'llama',
      contextLength: 2048,
      chatTemplate: false,
      size: 1_185_376,
    })
  })

  it('adds a file: copied into models/, hashed, listed; the index survives a reopen', async () => {
    const added = await index.addFile(TINY_MODEL)
    expect(added).toMatchObject({
      name: 'stories260K',
      file: 'stories260K.gguf',
      sha256: TINY_SHA256,
      size: 1_185_376,
    })
    expect(added.source).toEqual({ kind: 'file', path: TINY_MODEL })
    expect(
      readFileSync(join(dir, 'models', 'stories260K.gguf')).equals(readFileSync(TINY_MODEL)),
    ).toBe(true)
    expect(new ModelIndex(dir).list().map((m) => m.name)).toEqual(['stories260K'])
    expect(statSync(join(dir, 'models')).mode & 0o777).toBe(0o700)
    expect(readdirSync(join(dir, 'models')).filter((f) => f.endsWith('.partial'))).toEqual([])
  })

  it('a second model under another name; the same name is refused', async () => {
    await index.addFile(TINY_MODEL)
    await expect(index.addFile(TINY_MODEL)).rejects.toThrow(
      /already a model named "stories260K".*--name/,
    )
    const other = await index.addFile(TINY_MODEL, 'tiny-2')
    expect(other.file).toBe('tiny-2.gguf')
    expect(index.list().map((m) => m.name)).toEqual(['stories260K', 'tiny-2'])
    await expect(index.addFile(TINY_MODEL, '../evil')).rejects.toBeInstanceOf(ModelIndexError)
  })

  it('removes a model and its file; an unknown name says how to list them', async () => {
    await index.addFile(TINY_MODEL, 'gone')
    await index.remove('gone')
    expect(index.list()).toEqual([])
    expect(existsSync(join(dir, 'models', 'gone.gguf'))).toBe(false)
    await expect(index.remove('gone')).rejects.toThrow(/no local model "gone".*cairn models list/)
  })

  it('a file that is not GGUF is refused before anything is copied', async () => {
    const notGguf = join(dir, 'notes.gguf')
    writeFileSync(notGguf, 'PK\u0003\u0004 a zip, not a model')
    const e = await index.addFile(notGguf).catch((x: unknown) => x)
    expect(e).toBeInstanceOf(ModelFileError)
    expect((e as ModelFileError).problem).toBe('not_gguf')
    expect((e as Error).message).toMatch(/not a GGUF model.*GGUF/)
    expect(existsSync(join(dir, 'models'))).toBe(false)
  })

  it('a file cut short is refused with the sizes, and nothing is listed or left behind', async () => {
    const cut = join(dir, 'cut.gguf')
    writeFileSync(cut, readFileSync(TINY_MODEL).subarray(0, 600_000))
    const e = await index.addFile(cut).catch((x: unknown) => x)
    expect((e as ModelFileError).problem).toBe('truncated')
    expect((e as Error).message).toMatch(/cut short: it holds 586 KB of the 1 MB/)
    const header = join(dir, 'header.gguf')
    writeFileSync(header, readFileSync(TINY_MODEL).subarray(0, 5_000))
    expect(((await index.addFile(header).catch((x: unknown) => x)) as ModelFileError).problem).toBe(
      'truncated',
    )
    expect(index.list()).toEqual([])
  })

  it('a damaged index says what to do', () => {
    index.ensureDir()
    writeFileSync(join(dir, 'models', 'index.json'), '{"version": 1, "models": [{"name": 3}]}')
    expect(() => index.list()).toThrow(/index.json is damaged.*cairn models add/)
  })

  it('names come from file names', () => {
    expect(nameFromFile('/x/Qwen3-0.6B-Q4_K_M.gguf')).toBe('Qwen3-0.6B-Q4_K_M')
    expect(nameFromFile('my model (v2).GGUF')).toBe('my-model-v2-')
  })
})
