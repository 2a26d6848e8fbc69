import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  deleteSessionLogs,
  FileTurnLogger,
  listTurnLogs,
  pruneTurnLogs,
} from '../../src-main/adapters/logs/turn-log'
import { useTempDirs } from '../settings/temp-dirs'
import { request, response } from './fixtures'

const tempDir = useTempDirs()
const DAY = 24 * 60 * 60 * 1000
const sessionDir = (dir: string, id: string): string => path.join(dir, 'logs', 'sessions', id)

async function logCalls(dir: string, session: string, n: number, finish = true): Promise<void> {
  const logger = new FileTurnLogger(dir)
  for (let i = 0; i < n; i++) {
    const h = await logger.begin(session, request({ turnId: `t${i}` }))
    if (finish) await h.finish(response({ content: `answer ${i}` }))
  }
}

function age(file: string, days: number): void {
  const t = new Date(Date.now() - days * DAY)
  fs.utimesSync(file, t, t)
}

describe('pruneTurnLogs', () => {
  it('deletes files older than the retention and the session dirs left empty', async () => {
    const dir = tempDir()
    await logCalls(dir, 'old', 2)
    await logCalls(dir, 'mixed', 2)
    await logCalls(dir, 'fresh', 1)
    for (const f of fs.readdirSync(sessionDir(dir, 'old')))
      age(path.join(sessionDir(dir, 'old'), f), 40)
    age(path.join(sessionDir(dir, 'mixed'), 'turn-001-request.json'), 31)
    age(path.join(sessionDir(dir, 'mixed'), 'turn-001-response.json'), 31)
    age(path.join(sessionDir(dir, 'mixed'), 'turn-002-request.json'), 29)

    const result = await pruneTurnLogs(path.join(dir, 'logs'), 30)
    expect(result).toEqual({ deletedFiles: 6, removedDirs: 1 })
    expect(fs.existsSync(sessionDir(dir, 'old'))).toBe(false)
    expect(fs.readdirSync(sessionDir(dir, 'mixed')).sort()).toEqual([
      'turn-002-request.json',
      'turn-002-response.json',
    ])
    expect(fs.readdirSync(sessionDir(dir, 'fresh'))).toHaveLength(2)
    // numbering goes on after the highest number left
    expect((await new FileTurnLogger(dir).begin('mixed', request())).number).toBe(3)
  })

  it('prunes nothing with a retention that is not positive, or without logs', async () => {
    const dir = tempDir()
    await logCalls(dir, 's', 1)
    for (const f of fs.readdirSync(sessionDir(dir, 's')))
      age(path.join(sessionDir(dir, 's'), f), 400)
    expect(await pruneTurnLogs(path.join(dir, 'logs'), 0)).toEqual({
      deletedFiles: 0,
      removedDirs: 0,
    })
    expect(await pruneTurnLogs(path.join(tempDir(), 'logs'), 30)).toEqual({
      deletedFiles: 0,
      removedDirs: 0,
    })
    expect(fs.readdirSync(sessionDir(dir, 's'))).toHaveLength(2)
  })
})

describe('deleteSessionLogs', () => {
  it("deletes one session's logs and nothing else; numbering restarts", async () => {
    const dir = tempDir()
    const logger = new FileTurnLogger(dir)
    await logger.begin('a', request())
    await logger.begin('a', request())
    await logger.begin('b', request())
    await deleteSessionLogs(dir, 'a')
    expect(fs.existsSync(sessionDir(dir, 'a'))).toBe(false)
    expect(fs.readdirSync(sessionDir(dir, 'b'))).toEqual(['turn-001-request.json'])
    await expect(deleteSessionLogs(dir, 'never-logged')).resolves.toBeUndefined()
    expect((await logger.begin('a', request())).number).toBe(1)
  })

  it('rejects a bad session id', async () => {
    const dir = tempDir()
    fs.mkdirSync(path.join(dir, 'logs'), { recursive: true })
    await expect(deleteSessionLogs(dir, '../..')).rejects.toThrow(/Invalid session id/)
    await expect(deleteSessionLogs(dir, '..')).rejects.toThrow(/Invalid session id/)
    expect(fs.existsSync(path.join(dir, 'logs'))).toBe(true)
  })
})

describe('listTurnLogs', () => {
  it('pages through the calls in order, with missing responses as null', async () => {
    const dir = tempDir()
    await logCalls(dir, 's', 4)
    await logCalls(dir, 's', 1, false) // a crash before the response
    const all = await listTurnLogs(dir, 's', { offset: 0, limit: 10 })
    expect(all.total).toBe(5)
    expect(all.items.map((i) => i.number)).toEqual([1, 2, 3, 4, 5])
    expect(all.items[4]?.response).toBeNull()
    expect(all.items[4]?.request).toMatchObject({ turnId: 't0', model: 'qwen3' })

    const page = await listTurnLogs(dir, 's', { offset: 1, limit: 2 })
    expect(page.total).toBe(5)
    expect(page.items.map((i) => i.number)).toEqual([2, 3])
    expect(page.items[0]?.response).toMatchObject({ content: 'answer 1', status: 'complete' })

    expect(await listTurnLogs(dir, 's', { offset: 5, limit: 2 })).toEqual({ total: 5, items: [] })
    expect(await listTurnLogs(dir, 'none')).toEqual({ total: 0, items: [] })
    await expect(listTurnLogs(dir, '../s')).rejects.toThrow(/Invalid session id/)
  })
})

describe('numbering across processes', () => {
  it('never gives two processes the same number', async () => {
    const dir = tempDir()
    const worker = path.join(import.meta.dirname, 'log-worker.ts')
    const names = ['w1', 'w2', 'w3']
    const runs = names.map(
      (name) =>
        new Promise<{ code: number | null; out: string; err: string }>((resolve, reject) => {
          const child = spawn(process.execPath, ['--import', 'tsx', worker, dir, 's', '15', name], {
            cwd: process.cwd(),
          })
          let out = ''
          let err = ''
          child.stdout.on('data', (d: Buffer) => (out += d.toString()))
          child.stderr.on('data', (d: Buffer) => (err += d.toString()))
          child.on('error', reject)
          child.on('exit', (code) => resolve({ code, out, err }))
        }),
    )
    const until = Date.now() + 20_000
    while (!names.every((n) => fs.existsSync(path.join(dir, `ready-${n}`)))) {
      if (Date.now() > until) throw new Error('workers did not start')
      await new Promise((r) => setTimeout(r, 20))
    }
    fs.writeFileSync(path.join(dir, 'go'), '')
    const results = await Promise.all(runs)
    const numbers: number[] = []
    for (const r of results) {
      expect(r, r.err).toMatchObject({ code: 0, err: '' })
      numbers.push(...(JSON.parse(r.out) as number[]))
    }
    expect(numbers.sort((a, b) => a - b)).toEqual(Array.from({ length: 45 }, (_, i) => i + 1))
    const page = await listTurnLogs(dir, 's', { limit: 100 })
    expect(page.total).toBe(45)
    // each pair belongs together: the response's turn is the request's turn
    for (const item of page.items) {
      const req = item.request as { turnId: string }
      const res = item.response as { turnId: string; content: string }
      expect(res.turnId).toBe(req.turnId)
      expect(res.content).toBe(req.turnId)
    }
    expect(fs.readdirSync(sessionDir(dir, 's')).filter((f) => f.endsWith('.tmp'))).toEqual([])
  }, 60_000)
})
