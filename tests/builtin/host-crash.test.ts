/**
 * A host killed with SIGKILL in the middle of a command: the whole host (the services on a
 * data directory and the tool runtime) runs in a child Node process, a command leaves work
 * in the background, the child is killed, and a second host is started on the same data
 * directory. Under process groups (forced with CAIRN_COMMAND_CONTAINMENT) the leftovers
 * survive their host until that next start kills them; an entry whose pid now belongs to
 * a process that started at another time is left alone. Under a PID namespace they die with
 * their host. Linux (processes are found through /proc).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import { randomInt } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { detectContainment } from '../../src-main/adapters/builtin-tools/containment'
import { tempDir } from './harness'
import { alive, until, uniqueSleep, useStartedProcesses } from './processes'

const linux = process.platform === 'linux'
const contained = linux ? await detectContainment() : null
const namespaces = contained?.kind === 'pid-namespace'
const { children, theProcess } = useStartedProcesses()

/** Starts a host on `dataDir` in a child process; with a command, runs it through run_command. */
function startHost(
  dataDir: string,
  command: string | null,
  env: NodeJS.ProcessEnv,
): { child: ChildProcess; output: () => string; ready: Promise<void> } {
  const script = path.join(dataDir, '..', `host-${randomInt(1e9)}.mts`)
  const services = path.resolve('src-main/services/host/app-services.ts')
  const runtime = path.resolve('src-main/services/tools/tool-runtime.ts')
  fs.writeFileSync(
    script,
    `import { openAppServices } from ${JSON.stringify(services)}
    import { startToolRuntime } from ${JSON.stringify(runtime)}
    const [dataDir, command] = process.argv.slice(2)
    const app = openAppServices(dataDir)
    const tools = await startToolRuntime(app, { override: {}, warn: (m) => console.log('warning: ' + m) })
    if (command) {
      const host = tools.hostFor({ workspace: dataDir })
      await host.listTools() // as a turn does: the model is offered the tools before it calls one
      void host.callTool('run_command', { command }, {
        signal: new AbortController().signal, sessionId: 's', toolCallId: 'c',
      })
    }
    console.log('ready')
    setInterval(() => {}, 1000)
    `,
  )
  const child = spawn(process.execPath, ['--import', 'tsx', script, dataDir, command ?? ''], {
    cwd: process.cwd(),
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  children.push(child)
  let out = ''
  const ready = new Promise<void>((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString()
      if (out.includes('ready\n')) resolve()
    })
    child.on('exit', () => reject(new Error(`the host exited: ${out}`)))
  })
  return { child, output: () => out, ready }
}

async function kill(child: ChildProcess): Promise<void> {
  const exited = new Promise((resolve) => child.on('exit', resolve))
  child.kill('SIGKILL')
  await exited
}

describe.runIf(linux)('a host killed with SIGKILL', () => {
  it('under process groups: the next start kills the leftovers, not a reused pid', async () => {
    const dataDir = path.join(tempDir(), 'data')
    fs.mkdirSync(dataDir)
    const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()]
    const forced = { CAIRN_COMMAND_CONTAINMENT: 'process-group' }
    const first = startHost(dataDir, `${a} & setsid ${b} >/dev/null 2>&1 & sh -c '${c}'`, forced)
    await first.ready
    const sleeps = [await theProcess(a), await theProcess(b), await theProcess(c)]
    // the record is written just after the shell starts: on a busy machine, after its processes run
    const file = path.join(dataDir, 'mcp-processes.json')
    await until(() => fs.existsSync(file), 'the registry entry')
    await kill(first.child)
    await new Promise((r) => setTimeout(r, 300))
    for (const pid of sleeps) expect(alive(pid)).toBe(true) // nothing died with the host

    // an entry that looks like ours (dead owner, a node command line) for a process that
    // started at another time than the recorded one
    const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      detached: true,
      stdio: 'ignore',
    })
    children.push(unrelated)
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>[]
    expect(entries).toMatchObject([{ server: 'run_command', ownerPid: first.child.pid }])
    entries.push({
      ownerPid: spawnSync(process.execPath, ['-e', '']).pid,
      pid: unrelated.pid,
      server: 'run_command',
      command: process.execPath,
      startedAt: new Date().toISOString(),
      startTime: String(entries[0]?.['startTime']).replace(/\d+$/, '1'),
    })
    fs.writeFileSync(file, JSON.stringify(entries))

    const second = startHost(dataDir, null, forced)
    await second.ready
    expect(second.output()).toContain('warning: stopped 1 process group(s)')
    for (const pid of sleeps) await until(() => !alive(pid), `leftover ${pid} to be killed`)
    expect(alive(unrelated.pid!)).toBe(true)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([])
  }, 90_000)

  it.runIf(namespaces)(
    'under a PID namespace: the leftovers die with their host',
    async () => {
      const dataDir = path.join(tempDir(), 'data')
      fs.mkdirSync(dataDir)
      const [a, b] = [uniqueSleep(), uniqueSleep()]
      const first = startHost(dataDir, `setsid env -i ${a} >/dev/null 2>&1 & ${b}`, {})
      await first.ready
      const sleeps = [await theProcess(a), await theProcess(b)]
      // a namespace that dies with its host leaves the next start nothing to find: no record
      if (contained?.diesWithCairn)
        expect(fs.existsSync(path.join(dataDir, 'mcp-processes.json'))).toBe(false)
      await kill(first.child)
      for (const pid of sleeps) await until(() => !alive(pid), `pid ${pid} to die with its host`)
    },
    90_000,
  )
})
