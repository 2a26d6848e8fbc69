import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FileTurnLogger } from '../../src-main/adapters/logs/turn-log'
import { useTempDirs } from '../settings/temp-dirs'
import { request, response } from './fixtures'

const tempDir = useTempDirs()
const sessionDir = (dir: string, id: string): string => path.join(dir, 'logs', 'sessions', id)
const readJson = (p: string): Record<string, unknown> =>
  JSON.parse(fs.readFileSync(p, 'utf8')) as Record<string, unknown>

describe('FileTurnLogger', () => {
  it('writes the request at begin and the response at finish', async () => {
    const dir = tempDir()
    const logger = new FileTurnLogger(dir, { now: () => Date.UTC(2025, 0, 2, 3, 4, 5) })
    const req = request({ round: 2, headers: { 'X-Title': 'Cairn' } })
    const h = await logger.begin('s1', req)
    expect(h.number).toBe(1)
    const sd = sessionDir(dir, 's1')
    expect(fs.readdirSync(sd)).toEqual(['turn-001-request.json'])
    expect(readJson(path.join(sd, 'turn-001-request.json'))).toEqual({
      sessionId: 's1',
      turnId: 'turn-a',
      round: 2,
      attempt: 1,
      timestamp: '2025-01-02T03:04:05.000Z',
      baseURL: 'http://127.0.0.1:11434/v1',
      model: 'qwen3',
      headers: { 'X-Title': 'Cairn' },
      parameters: { model: 'qwen3', stream: true, temperature: 0.2 },
      toolNames: ['read_note'],
      body: req.body,
    })
    await h.finish(response())
    expect(readJson(path.join(sd, 'turn-001-response.json'))).toEqual({
      sessionId: 's1',
      turnId: 'turn-a',
      round: 2,
      attempt: 1,
      timestamp: '2025-01-02T03:04:05.000Z',
      ...response(),
    })
  })

  it('numbers calls from 001 across turns and across a restart', async () => {
    const dir = tempDir()
    const first = new FileTurnLogger(dir)
    expect((await first.begin('s1', request())).number).toBe(1)
    expect((await first.begin('s1', request({ turnId: 'b' }))).number).toBe(2)
    expect((await first.begin('other', request())).number).toBe(1)
    const restarted = new FileTurnLogger(dir)
    const h = await restarted.begin('s1', request({ turnId: 'c' }))
    expect(h.number).toBe(3)
    await h.finish(response())
    // the first logger's cache is behind a number taken elsewhere: verified, not trusted
    expect((await first.begin('s1', request())).number).toBe(4)
    expect(fs.readdirSync(sessionDir(dir, 's1')).sort()).toEqual([
      'turn-001-request.json',
      'turn-002-request.json',
      'turn-003-request.json',
      'turn-003-response.json',
      'turn-004-request.json',
    ])
  })

  it('goes past 999 with more digits', async () => {
    const dir = tempDir()
    const sd = sessionDir(dir, 's1')
    fs.mkdirSync(sd, { recursive: true })
    fs.writeFileSync(path.join(sd, 'turn-999-response.json'), '{}')
    const h = await new FileTurnLogger(dir).begin('s1', request())
    expect(h.number).toBe(1000)
    expect(fs.existsSync(path.join(sd, 'turn-1000-request.json'))).toBe(true)
  })

  it('never gives two racing loggers the same number, and leaves no temp file', async () => {
    const dir = tempDir()
    const a = new FileTurnLogger(dir)
    const b = new FileTurnLogger(dir)
    const handles = await Promise.all(
      Array.from({ length: 20 }, (_, i) => (i % 2 ? a : b).begin('s1', request({ round: i }))),
    )
    await Promise.all(handles.map((h) => h.finish(response())))
    const numbers = handles.map((h) => h.number).sort((x, y) => x - y)
    expect(numbers).toEqual(Array.from({ length: 20 }, (_, i) => i + 1))
    const files = fs.readdirSync(sessionDir(dir, 's1'))
    expect(files).toHaveLength(40)
    expect(files.every((f) => /^turn-\d{3}-(request|response)\.json$/.test(f))).toBe(true)
    // each number holds the request of exactly one call
    const rounds = handles.map(
      (h) =>
        readJson(
          path.join(
            sessionDir(dir, 's1'),
            `turn-${String(h.number).padStart(3, '0')}-request.json`,
          ),
        )['round'],
    )
    expect(new Set(rounds).size).toBe(20)
  })

  it('never writes API keys or credentials', async () => {
    const dir = tempDir()
    const key = 'sk-test-0123456789abcdef'
    const other = 'gsk_"quoted"\\key'
    const logger = new FileTurnLogger(dir, { secrets: () => [key, other] })
    const h = await logger.begin(
      's1',
      request({
        baseURL: 'https://user:hunter2pass@example.com/v1?api_key=qp-secret-1&x=1',
        headers: {
          Authorization: `Bearer ${key}`,
          'x-api-key': 'header-secret-2',
          'X-Auth-Token': 'header-secret-3',
          Cookie: 'session=header-secret-4',
          'X-Title': 'Cairn',
        },
        body: {
          model: 'm',
          messages: [
            { role: 'user', content: `my key is ${key}, the other ${other}` },
            { role: 'user', content: [{ type: 'text', text: key }] },
          ],
        },
      }),
    )
    await h.finish(response({ content: `You said ${key}`, error: { code: 'auth', message: key } }))
    const sd = sessionDir(dir, 's1')
    const text = fs
      .readdirSync(sd)
      .map((f) => fs.readFileSync(path.join(sd, f), 'utf8'))
      .join('\n')
    for (const secret of [
      key,
      'hunter2pass',
      'qp-secret-1',
      'header-secret-2',
      'header-secret-3',
      'header-secret-4',
      'quoted',
    ]) {
      expect(text).not.toContain(secret)
    }
    expect(text).toContain('[REDACTED]')
    const req = readJson(path.join(sd, 'turn-001-request.json'))
    expect(req['headers']).toEqual({
      Authorization: '[REDACTED]',
      'x-api-key': '[REDACTED]',
      'X-Auth-Token': '[REDACTED]',
      Cookie: '[REDACTED]',
      'X-Title': 'Cairn',
    })
    expect(req['baseURL']).toContain('x=1')
    expect(readJson(path.join(sd, 'turn-001-response.json'))['content']).toBe('You said [REDACTED]')
  })

  it('reports write failures through onError and never fails the turn', async () => {
    const dir = tempDir()
    // a file where the session directory should be
    fs.mkdirSync(path.join(dir, 'logs', 'sessions'), { recursive: true })
    fs.writeFileSync(sessionDir(dir, 's1'), 'not a directory')
    const errors: Error[] = []
    const logger = new FileTurnLogger(dir, { onError: (e) => errors.push(e) })
    const h = await logger.begin('s1', request())
    expect(h.number).toBe(0)
    await expect(h.finish(response())).resolves.toBeUndefined()
    expect(errors).toHaveLength(1)

    const failing = new FileTurnLogger(tempDir(), {
      secrets: () => {
        throw new Error('keychain locked')
      },
      onError: (e) => errors.push(e),
    })
    expect((await failing.begin('s2', request())).number).toBe(0)
    expect(errors[1]?.message).toContain('keychain locked')
  })

  it('rejects a session id that could escape the logs directory', async () => {
    const dir = tempDir()
    const logger = new FileTurnLogger(dir)
    await expect(logger.begin('../x', request())).rejects.toThrow(/Invalid session id/)
    await expect(logger.begin('a/b', request())).rejects.toThrow(/Invalid session id/)
    expect(fs.readdirSync(dir)).toEqual([])
  })
})
