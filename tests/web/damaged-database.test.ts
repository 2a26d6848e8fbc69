/**
 * Browser mode on a damaged database: it says so and what to do, changes nothing; with
 * --replace-damaged-database it copies the file aside and starts on a new one.
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import { tmpdir } from 'node:os'
import path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'

const dir = fs.mkdtempSync(path.join(tmpdir(), 'cairn-web-damaged-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** Runs `npm run web`'s entry until it prints its address (then stops it) or exits. */
function start(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number | null; out: string; err: string }> {
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      'src-main/web/index.ts',
      '--no-open',
      '--port',
      '0',
      '--data-dir',
      dir,
      ...args,
    ],
    {
      env: {
        PATH: process.env['PATH'],
        HOME: dir,
        CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
        ...env,
      },
    },
  )
  let out = ''
  let err = ''
  child.stderr.on('data', (d: Buffer) => (err += d.toString()))
  child.stdout.on('data', (d: Buffer) => {
    out += d.toString()
    if (out.includes('Cairn is running at')) child.kill('SIGTERM')
  })
  // a host that neither starts nor exits is reported with what it printed
  const stuck = setTimeout(() => child.kill('SIGKILL'), 45_000)
  return new Promise((resolve) =>
    child.once('exit', (code, signal) => {
      clearTimeout(stuck)
      resolve({ code: code ?? (signal === 'SIGKILL' ? -9 : null), out, err })
    }),
  )
}

describe('browser mode on a damaged database', () => {
  it('says what is wrong and what to do, then replaces it only when asked', async () => {
    fs.writeFileSync(path.join(dir, 'cairn.db'), 'not a database '.repeat(500))
    const refused = await start([])
    expect(refused.err).toMatch(/cairn\.db is damaged/)
    expect(refused.code).toBe(1)
    expect(refused.err).toMatch(/cairn\.db is damaged and cannot be opened/)
    expect(refused.err).toMatch(/--replace-damaged-database/)
    expect(refused.err).not.toMatch(/\n\s+at .+:\d+:\d+/)
    expect(fs.readFileSync(path.join(dir, 'cairn.db'), 'utf8')).toMatch(/^not a database/)
    // started by `npm run web`, it says how to pass the option through npm
    const viaNpm = await start([], { npm_lifecycle_event: 'web' })
    expect(viaNpm.code).toBe(1)
    expect(viaNpm.err).toMatch(/start it again with npm run web -- --replace-damaged-database\./)
    expect(refused.err).toMatch(/start it again with --replace-damaged-database\./)

    const replaced = await start(['--replace-damaged-database'])
    expect(replaced.err).toMatch(/moved to .*cairn\.db\.damaged-/)
    expect(replaced.out).toMatch(/Cairn is running at/)
    const aside = fs.readdirSync(dir).find((f) => /^cairn\.db\.damaged-[^-]+$/.test(f))!
    expect(fs.readFileSync(path.join(dir, aside), 'utf8')).toMatch(/^not a database/)
  }, 120_000)
})
