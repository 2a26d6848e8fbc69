/** The pid file of running server groups and the cleanup of leftovers at the next start. */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { ProcessRegistry, type RegistryEntry } from '../../src-main/adapters/mcp/process-registry'
import {
  isAlive,
  isGroupAlive,
  signalGroup,
  waitUntil,
} from '../../src-main/adapters/mcp/process-tree'

const posix = process.platform !== 'win32'
let dir: string
let file: string
const children: ChildProcess[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-registry-'))
  file = join(dir, 'mcp-processes.json')
})

afterEach(() => {
  for (const c of children.splice(0)) {
    if (c.pid) signalGroup(c.pid, 'SIGKILL')
    c.kill('SIGKILL')
  }
  rmSync(dir, { recursive: true, force: true })
})

/** A detached "server": a group leader that idles. */
function idleServer(detached = true): ChildProcess {
  const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
    detached,
    stdio: 'ignore',
  })
  children.push(child)
  return child
}

/** The pid of a process that has finished: a dead owner. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '']).pid
}

function writeEntries(entries: Partial<RegistryEntry>[]): void {
  const full = entries.map((e) => ({
    server: 'test',
    command: process.execPath,
    startedAt: new Date().toISOString(),
    ...e,
  }))
  writeFileSync(file, JSON.stringify(full))
}

const readFile = (): RegistryEntry[] => JSON.parse(readFileSync(file, 'utf8')) as RegistryEntry[]

describe('ProcessRegistry', () => {
  it('adds and removes entries of this process, atomically and without temp files left', () => {
    const r = new ProcessRegistry(join(dir, 'sub', 'mcp-processes.json'))
    r.add(101, { server: 'a', command: '/usr/bin/a' })
    r.add(102, { server: 'b', command: '/usr/bin/b' })
    expect(r.entries()).toMatchObject([
      { pid: 101, ownerPid: process.pid, server: 'a', command: '/usr/bin/a' },
      { pid: 102, ownerPid: process.pid, server: 'b', command: '/usr/bin/b' },
    ])
    expect(Date.parse(r.entries()[0]!.startedAt)).toBeGreaterThan(0)
    r.remove(101)
    expect(r.entries().map((e) => e.pid)).toEqual([102])
    expect(readdirSync(join(dir, 'sub'))).toEqual(['mcp-processes.json'])
    expect(r.lastError).toBeNull()
  })

  it('treats a corrupt file as empty and rewrites it', () => {
    writeFileSync(file, '{ not json')
    const r = new ProcessRegistry(file)
    expect(r.entries()).toEqual([])
    r.add(5, { server: 's', command: 'c' })
    expect(readFile().map((e) => e.pid)).toEqual([5])
  })

  it('keeps only the well-formed entries of a file edited by hand or by another version', () => {
    const good = { ownerPid: 7, pid: 70, server: 's', command: 'c', startedAt: 'x', host: 'h' }
    writeFileSync(
      file,
      JSON.stringify({
        processes: [
          good,
          { ...good, pid: '71' },
          { ...good, pid: 7.5 },
          { ...good, server: undefined },
          { ...good, host: 3 },
          null,
          'text',
        ],
      }),
    )
    const r = new ProcessRegistry(file)
    expect(r.entries()).toEqual([good])
    r.add(8, { server: 'b', command: 'd' })
    expect(readFile().map((e) => e.pid)).toEqual([70, 8])
  })

  it.runIf(posix)('kills a leftover group whose owner is dead, and drops its entry', async () => {
    const server = idleServer()
    const keep = idleServer() // owned by a live process: must survive
    const liveOwner = idleServer(false)
    writeEntries([
      { ownerPid: deadPid(), pid: server.pid!, server: 'leftover' },
      { ownerPid: liveOwner.pid!, pid: keep.pid!, server: 'running elsewhere' },
    ])
    expect(isAlive(server.pid!)).toBe(true)
    const killed = await new ProcessRegistry(file).cleanupLeftovers()
    expect(killed).toBe(1)
    expect(await waitUntil(() => !isGroupAlive(server.pid!), 2000)).toBe(true)
    expect(isAlive(keep.pid!)).toBe(true)
    expect(readFile().map((e) => e.pid)).toEqual([keep.pid])
  })

  it('leaves entries whose owner is alive alone', async () => {
    const server = idleServer()
    const liveOwner = idleServer(false)
    writeEntries([{ ownerPid: liveOwner.pid!, pid: server.pid! }])
    expect(await new ProcessRegistry(file).cleanupLeftovers()).toBe(0)
    expect(isAlive(server.pid!)).toBe(true)
    expect(readFile()).toHaveLength(1)
  })

  it('drops entries whose group is already gone without counting them', async () => {
    writeEntries([{ ownerPid: deadPid(), pid: deadPid() }])
    expect(await new ProcessRegistry(file).cleanupLeftovers()).toBe(0)
    expect(readFile()).toEqual([])
  })

  it.runIf(process.platform === 'linux')(
    'does not kill a pid that now belongs to another program',
    async () => {
      const other = idleServer()
      writeEntries([{ ownerPid: deadPid(), pid: other.pid!, command: '/usr/local/bin/uvx' }])
      expect(await new ProcessRegistry(file).cleanupLeftovers()).toBe(0)
      expect(isAlive(other.pid!)).toBe(true)
      expect(readFile()).toEqual([])
    },
  )

  it('records the start time of what it adds (so a reused pid is told apart)', () => {
    const server = idleServer()
    const r = new ProcessRegistry(file)
    r.add(server.pid!, { server: 's', command: process.execPath, marker: 'CAIRN_X=1' })
    const [entry] = r.entries()
    expect(entry?.marker).toBe('CAIRN_X=1')
    if (process.platform !== 'win32') expect(entry?.startTime).toEqual(expect.any(String))
  })

  it.runIf(process.platform === 'linux')(
    "kills what carries a leftover's marker when its leader is gone, and nothing else",
    async () => {
      const value = `m${process.pid}${Date.now()}`
      const marked = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
        detached: true,
        stdio: 'ignore',
        env: { ...process.env, CAIRN_TEST_MARK: value },
      })
      children.push(marked)
      const unmarked = idleServer()
      // the recorded leader is gone; its start time can match nothing
      writeEntries([
        {
          ownerPid: deadPid(),
          pid: deadPid(),
          startTime: 'linux:x:1',
          marker: `CAIRN_TEST_MARK=${value}`,
        },
        // recorded where no start time is read (Windows): its pid is not provably ours
        { ownerPid: deadPid(), pid: unmarked.pid!, marker: 'CAIRN_TEST_MARK=other' },
      ])
      await waitUntil(() => readFileSync(`/proc/${marked.pid}/environ`).includes(value), 5000)
      expect(await new ProcessRegistry(file).cleanupLeftovers()).toBe(1)
      expect(await waitUntil(() => !isAlive(marked.pid!), 5000)).toBe(true)
      expect(isAlive(unmarked.pid!)).toBe(true)
      expect(readFile()).toEqual([])
    },
  )

  it('keeps every entry when several processes write at once (lock)', async () => {
    const worker = join(dir, 'worker.mts')
    const registryPath = join(process.cwd(), 'src-main/adapters/mcp/process-registry.ts')
    writeFileSync(
      worker,
      `import { ProcessRegistry } from ${JSON.stringify(registryPath)}\n` +
        'const [file, base, go] = process.argv.slice(2)\n' +
        'const r = new ProcessRegistry(file)\n' +
        '// start together, so that the writes really overlap\n' +
        'while (Date.now() < Number(go)) {}\n' +
        "for (let i = 0; i < 40; i++) r.add(Number(base) + i, { server: 's', command: 'c' })\n" +
        'if (r.lastError) { console.error(r.lastError); process.exit(1) }\n',
    )
    const go = String(Date.now() + 1500) // after the workers' start-up
    const codes = await Promise.all(
      [1000, 2000, 3000, 4000].map(
        (base) =>
          new Promise<number | null>((resolve) => {
            const c = spawn(process.execPath, ['--import', 'tsx', worker, file, String(base), go], {
              cwd: process.cwd(),
              stdio: 'inherit',
            })
            children.push(c)
            c.on('exit', (code) => resolve(code))
          }),
      ),
    )
    expect(codes).toEqual([0, 0, 0, 0])
    expect(readFile()).toHaveLength(160)
    expect(existsSync(`${file}.lock`)).toBe(false)
  })
})
