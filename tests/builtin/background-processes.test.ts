/**
 * Nothing run_command starts outlives its command: processes left in the background
 * (`&`, `nohup`) and processes that left the command's process group (`setsid`) are
 * stopped when the command ends, and everything still running when the host process exits
 * is killed; a process that also clears its environment is killed too where the command
 * runs in a PID namespace; and what a Cairn killed with SIGKILL left is killed by the
 * kernel (namespace) or at the next start (process registry). Linux: processes are found
 * from outside through /proc, by a unique command line (inside a namespace `$!` is not a
 * pid of this system).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  containment,
  detectContainment,
  processGroupOnly,
  type Containment,
} from '../../src-main/adapters/builtin-tools/containment'
import { ProcessRegistry } from '../../src-main/adapters/mcp/process-registry'
import { harness, tempDir } from './harness'
import { checkoutUnreachable } from '../support/unprivileged'
import { alive, pgidOf, until, uniqueSleep, useStartedProcesses } from './processes'

const linux = process.platform === 'linux'
const namespace = linux ? await detectContainment() : processGroupOnly()
const modes: Containment[] = [
  processGroupOnly(),
  ...(namespace.kind === 'pid-namespace' ? [namespace] : []),
]

const { children, theProcess } = useStartedProcesses()

describe.runIf(linux).each(modes.map((m) => [m.kind, m] as const))(
  'run_command leaves nothing running (%s)',
  (kind, mode) => {
    for (const [name, start] of [
      ['a process started with &', (s: string) => `${s} &`],
      ['a process started with nohup', (s: string) => `nohup ${s} >/dev/null 2>&1 &`],
      ['a process that left the group with setsid', (s: string) => `setsid ${s} >/dev/null 2>&1 &`],
      [
        'a process that left through a double fork',
        (s: string) => `sh -c 'setsid ${s} >/dev/null 2>&1 &'; true`,
      ],
    ] as const) {
      it(`stops ${name} when the command ends`, async () => {
        const h = harness({ containment: mode })
        const sleep = uniqueSleep()
        const watch = theProcess(sleep)
        const r = await h.call('run_command', { command: `${start(sleep)}\nsleep 1; echo done` })
        expect(r.text).toMatch(/done\n\[exit code 0\]$/)
        const pid = await watch
        await until(() => !alive(pid), `pid ${pid} to be stopped`)
      }, 60_000)
    }

    it('the setsid case really left the group (so the group kill alone would miss it)', async () => {
      const h = harness({ containment: mode })
      const sleep = uniqueSleep()
      const r = h.call('run_command', {
        command: `setsid ${sleep} >/dev/null 2>&1 & sleep 1`,
      })
      const pid = await theProcess(sleep)
      // it leads a group of its own: the command's group (led by its shell, or by unshare) is another
      expect(pgidOf(pid)).toBe(pid)
      await r
      await until(() => !alive(pid), `pid ${pid} to be stopped`)
    }, 60_000)

    it('kills what a running command started when the host process exits', async () => {
      const dir = tempDir()
      const sleep = uniqueSleep()
      const module = path.resolve('src-main/adapters/builtin-tools/spawn-group.ts')
      const containmentModule = path.resolve('src-main/adapters/builtin-tools/containment.ts')
      const script = `
        import { runInProcessGroup } from ${JSON.stringify(module)}
        import { processGroupOnly } from ${JSON.stringify(containmentModule)}
        void runInProcessGroup({
          command: 'setsid ${sleep} >/dev/null 2>&1 & sleep 300',
          cwd: ${JSON.stringify(dir)},
          env: { PATH: process.env.PATH },
          timeoutMs: 600000,
          signal: new AbortController().signal,
          maxOutputChars: 1000,
          ${kind === 'process-group' ? 'containment: processGroupOnly(),' : ''}
        })
        // exits by itself (and so runs its exit hook) when the test has seen the process:
        // told over the IPC channel, no signal that could end it before its handler is set
        process.on('message', () => process.exit(0))
        process.send?.('ready')
      `
      const file = path.join(dir, 'host.mts')
      fs.writeFileSync(file, script)
      const child = spawn(process.execPath, ['--import', 'tsx', file], {
        cwd: process.cwd(),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
      })
      children.push(child)
      const exited = new Promise<{ code: number | null; signal: string | null }>((resolve) =>
        child.on('exit', (code, signal) => resolve({ code, signal })),
      )
      const ready = new Promise<void>((resolve) => child.once('message', () => resolve()))
      const pid = await theProcess(sleep)
      await ready
      child.send('exit')
      expect(await exited).toEqual({ code: 0, signal: null })
      await until(() => !alive(pid), `pid ${pid} to be killed at exit`)
    }, 60_000)
  },
)

describe.runIf(linux && namespace.kind === 'pid-namespace')(
  'run_command in a PID namespace',
  () => {
    it('kills a process that left its group and cleared its environment', async () => {
      const h = harness()
      const sleep = uniqueSleep()
      const call = h.call('run_command', {
        command: `setsid env -i ${sleep} >/dev/null 2>&1 & sleep 1; echo done`,
      })
      const pid = await theProcess(sleep)
      // nothing marks it: no environment, and a session (so a group) of its own
      expect(fs.readFileSync(`/proc/${pid}/environ`).length).toBe(0)
      expect(pgidOf(pid)).toBe(pid)
      expect((await call).text).toMatch(/done\n\[exit code 0\]$/)
      await until(() => !alive(pid), `pid ${pid} (no environment, own session) to be killed`)
    }, 60_000)

    it('runs the command with pids and a /proc of its own, and reports the exit code', async () => {
      const h = harness()
      const r = await h.call('run_command', {
        command: 'echo shell:$$; ls /proc | grep -c "^[0-9]"; exit 4',
      })
      // the init is 1, the shell 2; /proc lists only the namespace's processes (a handful)
      expect(r.text).toMatch(/^shell:2\n[1-5]\n\[exit code 4\]$/)
    })

    it('finds what works once and keeps it', async () => {
      const first = containment()
      expect(containment()).toBe(first)
      expect((await first).kind).toBe('pid-namespace')
    })

    it('kills what a command left when the host is killed with SIGKILL, without a restart', async () => {
      const { child, sleeps } = await startAndKill(undefined)
      expect(child.signalCode).toBe('SIGKILL')
      for (const pid of sleeps) await until(() => !alive(pid), `pid ${pid} to die with its host`)
    }, 60_000)

    const unprivileged = spawnSync('setpriv', [
      '--reuid=65534',
      '--regid=65534',
      '--clear-groups',
      'true',
    ]).status
    const asRoot = process.getuid?.() === 0 && unprivileged === 0
    // that user loads spawn-group.ts from the checkout: skipped, saying why, where it cannot
    const unreachable = asRoot ? checkoutUnreachable() : null
    ;(unreachable ? it.skip : it.runIf(asRoot))(
      `works for an unprivileged user too, in a user namespace${unreachable ? ` (skipped: ${unreachable})` : ''}`,
      async () => {
        const dir = tempDir()
        fs.chmodSync(dir, 0o777)
        const sleep = uniqueSleep()
        const module = path.resolve('src-main/adapters/builtin-tools/spawn-group.ts')
        const script = path.join(dir, 'run.mts')
        fs.writeFileSync(
          script,
          `import { runInProcessGroup } from ${JSON.stringify(module)}
        const r = await runInProcessGroup({
          command: 'id -u; setsid env -i ${sleep} >/dev/null 2>&1 & sleep 1; echo done',
          cwd: ${JSON.stringify(dir)},
          env: { PATH: process.env.PATH },
          timeoutMs: 60000,
          signal: new AbortController().signal,
          maxOutputChars: 1000,
        })
        console.log(JSON.stringify(r))
        `,
        )
        const child = spawn(
          'setpriv',
          [
            '--reuid=65534',
            '--regid=65534',
            '--clear-groups',
            process.execPath,
            '--import',
            'tsx',
            script,
          ],
          { cwd: process.cwd(), env: { PATH: process.env['PATH'], HOME: dir } },
        )
        children.push(child)
        let stdout = ''
        let stderr = ''
        child.stdout.on('data', (d: Buffer) => (stdout += d.toString()))
        child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
        const closed = new Promise((resolve) => child.on('close', resolve))
        const pid = await theProcess(sleep)
        expect(fs.statSync(`/proc/${pid}`).uid).toBe(65534) // it runs as the unprivileged user
        await closed
        expect(stderr).toBe('')
        const result = JSON.parse(stdout.trim().split('\n').pop() ?? '{}') as {
          output: string
          containment: string
        }
        expect(result.containment).toBe('pid-namespace')
        expect(result.output).toBe('65534\ndone\n')
        await until(() => !alive(pid), `pid ${pid} to be killed`)
      },
      60_000,
    )
  },
)

/**
 * Starts the built-in tools in a child Node process with a process registry, runs a command
 * that leaves work in the background (in the group, and out of it with setsid), waits until
 * it all runs, then kills the child with SIGKILL.
 */
async function startAndKill(
  forced: Containment | undefined,
  registryFile?: string,
): Promise<{ child: ChildProcess; sleeps: number[] }> {
  const dir = tempDir()
  const [a, b, c] = [uniqueSleep(), uniqueSleep(), uniqueSleep()]
  const script = path.join(dir, 'host.mts')
  const index = path.resolve('src-main/adapters/builtin-tools/index.ts')
  const containmentModule = path.resolve('src-main/adapters/builtin-tools/containment.ts')
  const registryModule = path.resolve('src-main/adapters/mcp/process-registry.ts')
  fs.writeFileSync(
    script,
    `import { BuiltinTools } from ${JSON.stringify(index)}
    import { processGroupOnly } from ${JSON.stringify(containmentModule)}
    import { ProcessRegistry } from ${JSON.stringify(registryModule)}
    const tools = new BuiltinTools({
      workspace: () => ${JSON.stringify(dir)},
      ${registryFile ? `processRegistry: new ProcessRegistry(${JSON.stringify(registryFile)}),` : ''}
      ${forced ? 'containment: processGroupOnly(),' : ''}
    })
    void tools.call('run_command', { command: "${a} & setsid ${b} >/dev/null 2>&1 & ${c}" }, {
      signal: new AbortController().signal, sessionId: 's', toolCallId: 'c',
    })
    setInterval(() => {}, 1000)
    `,
  )
  const child = spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: process.cwd(),
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  children.push(child)
  const sleeps = [await theProcess(a), await theProcess(b), await theProcess(c)]
  // the record is written just after the shell starts: on a busy machine, after its processes run
  if (registryFile) await until(() => fs.existsSync(registryFile), 'the registry entry')
  const exited = new Promise((resolve) => child.on('exit', resolve))
  child.kill('SIGKILL')
  await exited
  return { child, sleeps }
}

describe.runIf(linux)('after a host killed with SIGKILL (process groups)', () => {
  it('the next start kills its leftovers, and leaves a pid that is not ours alone', async () => {
    const dir = tempDir()
    const file = path.join(dir, 'mcp-processes.json')
    const { sleeps } = await startAndKill(processGroupOnly(), file)
    // the process groups do not die with their host: only the registry can find them
    for (const pid of sleeps) expect(alive(pid)).toBe(true)

    // an entry that looks like ours (dead owner, the program's name) whose pid now belongs
    // to a process that started at another time
    const unrelated = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1000)'], {
      detached: true,
      stdio: 'ignore',
    })
    children.push(unrelated)
    const deadOwner = spawnSync(process.execPath, ['-e', '']).pid
    const entries = JSON.parse(fs.readFileSync(file, 'utf8')) as Record<string, unknown>[]
    expect(entries).toHaveLength(1)
    expect(entries[0]).toMatchObject({ server: 'run_command' })
    expect(entries[0]?.['startTime']).toMatch(/^linux:/)
    entries.push({
      ownerPid: deadOwner,
      pid: unrelated.pid,
      server: 'run_command',
      command: process.execPath,
      startedAt: new Date().toISOString(),
      startTime: String(entries[0]?.['startTime']).replace(/\d+$/, '1'),
    })
    fs.writeFileSync(file, JSON.stringify(entries))

    const killed = await new ProcessRegistry(file).cleanupLeftovers()
    expect(killed).toBe(1)
    for (const pid of sleeps) await until(() => !alive(pid), `leftover ${pid} to be killed`)
    expect(alive(unrelated.pid!)).toBe(true)
    expect(JSON.parse(fs.readFileSync(file, 'utf8'))).toEqual([])
  }, 60_000)
})
