/**
 * `cairn knowledge …` as a user runs it, on the built CLI: add a folder of real files to a
 * project (a PDF made by pdf-lib, Markdown, binary data), status with what was skipped and
 * why, search with file, place and score (and --json), an edit seen by reindex, remove, and
 * the mistakes said with what to do.
 */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openAppServices } from '../../src-main/services/host/app-services'
import { runCli } from '../support/cli'
import { textPdf } from '../support/attachment-files'

let root: string
let docs: string
let env: NodeJS.ProcessEnv
beforeEach(async () => {
  root = mkdtempSync(join(tmpdir(), 'cairn-cli-knowledge-'))
  docs = join(root, 'docs')
  mkdirSync(docs)
  env = { CAIRN_DATA_DIR: join(root, 'data') }
  const app = openAppServices(join(root, 'data'))
  app.projects.create({ name: 'Boats', instructions: '' })
  app.close()
  writeFileSync(
    join(docs, 'manual.pdf'),
    await textPdf(['Contents.', 'The lighthouse keeper winds the clock every Sunday.']),
  )
  writeFileSync(join(docs, 'notes.md'), '# Birds\n\nThe heron fishes at dawn.\n')
  writeFileSync(join(docs, 'blob.bin'), Buffer.from([0, 159, 146, 150, 0, 1]))
})
afterEach(() => rmSync(root, { recursive: true, force: true }))

// documents are read in workers of their own: slow on a busy machine
describe('cairn knowledge', { timeout: 120_000 }, () => {
  it("adds a folder, says each file's state, searches it and follows an edit", async () => {
    const add = await runCli(['knowledge', 'add', docs, '--project', 'Boats'], { env })
    expect(add.stderr).toBe('')
    expect(add.code).toBe(0)
    expect(add.stdout).toContain(`${docs} [project Boats]: 2 indexed (3 chunks), 1 skipped`)

    const status = await runCli(['knowledge', 'status'], { env })
    expect(status.stdout).toContain(`skipped  ${join(docs, 'blob.bin')}: it is binary data`)
    const json = await runCli(['knowledge', 'status', '--json'], { env })
    const source = JSON.parse(json.stdout.trim()) as { files: { path: string; state: string }[] }
    expect(source.files.map((f) => f.state).sort()).toEqual(['indexed', 'indexed', 'skipped'])

    const search = await runCli(
      ['knowledge', 'search', 'who winds the clock', '--project', 'Boats'],
      { env },
    )
    expect(search.code).toBe(0)
    expect(search.stdout).toMatch(
      new RegExp(`^${join(docs, 'manual.pdf')} \\(page 2\\)  score \\d`),
    )
    expect(search.stdout).toContain('The lighthouse keeper winds the clock')
    const hits = (await runCli(['knowledge', 'search', 'heron', '--json'], { env })).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { file: string; location: unknown; score: number })
    expect(hits[0]).toMatchObject({
      file: join(docs, 'notes.md'),
      location: { startLine: 1, endLine: 3 },
    })
    expect(hits[0]!.score).toBeGreaterThan(0)

    writeFileSync(join(docs, 'notes.md'), '# Birds\n\nThe cormorant dries its wings.\n')
    expect((await runCli(['knowledge', 'reindex'], { env })).code).toBe(0)
    expect(
      (await runCli(['knowledge', 'search', 'cormorant', '--json'], { env })).stdout,
    ).toContain('notes.md')
    expect((await runCli(['knowledge', 'search', 'heron'], { env })).stderr).toContain(
      'Nothing in the knowledge sources matches',
    )

    const remove = await runCli(['knowledge', 'remove', docs, '--project', 'Boats'], { env })
    expect(remove.stdout).toContain(`Removed ${docs}`)
    expect((await runCli(['knowledge', 'status'], { env })).stdout).toContain(
      'No knowledge sources yet',
    )
  })

  it('says what is wrong with a mistaken command line', async () => {
    const noProject = await runCli(['knowledge', 'add', docs], { env })
    expect(noProject.code).toBe(2)
    expect(noProject.stderr).toContain('--project <name>')
    const noSuchProject = await runCli(['knowledge', 'add', docs, '--project', 'Planes'], { env })
    expect(noSuchProject.code).not.toBe(0)
    expect(noSuchProject.stderr).toContain('There is no project "Planes"')
    const missing = await runCli(['knowledge', 'add', join(root, 'nope'), '--project', 'Boats'], {
      env,
    })
    expect(missing.code).not.toBe(0)
    expect(missing.stderr).toContain('does not exist')
    const unknown = await runCli(['knowledge', 'frob'], { env })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('knowledge has no command "frob"')
    const gone = await runCli(['knowledge', 'remove', join(root, 'nope')], { env })
    expect(gone.stderr).toContain('No knowledge source is')
  })
})
