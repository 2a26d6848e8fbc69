/**
 * Nothing run_command starts outlives its command: processes left in the background
 * (`&`, `nohup`) and processes that left the command's process group (`setsid`) are
 * stopped when the command ends, and everything still running when the host process exits
 * is killed. Linux (escaped processes are found through /proc).
 */
import { spawn } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { harness, tempDir } from './harness'

const linux = process.platform === 'linux'
const started: number[] = []
afterEach(() => {
  for (const pid of started.splice(0)) {
    try {
      process.kill(pid, 'SIGKILL')
    } catch {
      // gone, as it should be
    }
  }
})

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0)
  } catch {
    return false
  }
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}

function pgidOf(pid: number): number {
  const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
  return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[2])
}

async function until(check: () => boolean, what: string, timeoutMs = 30_000): Promise<void> {
  const end = Date.now() + timeoutMs
  while (!check()) {
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`)
    await new Promise((r) => setTimeout(r, 50))
  }
}

function pidFrom(text: string): number {
  const pid = Number(/bg:(\d+)/.exec(text)?.[1])
  expect(pid).toBeGreaterThan(1)
  started.push(pid)
  return pid
}

describe.runIf(linux)('run_command leaves nothing running', () => {
  for (const [name, start] of [
    ['a process started with &', 'sleep 300 &'],
    ['a process started with nohup', 'nohup sleep 300 >/dev/null 2>&1 &'],
    ['a process that left the group with setsid', 'setsid sleep 300 >/dev/null 2>&1 &'],
    [
      'a process that left through a double fork',
      "sh -c 'setsid sleep 300 >/dev/null 2>&1 & echo bg:$! >&3' 3>&1 >/dev/null; true",
    ],
  ] as const) {
    it(`stops ${name} when the command ends`, async () => {
      const h = harness()
      const command = start.includes('bg:') ? start : `${start} echo bg:$!; echo shell:$$`
      const r = await h.call('run_command', { command })
      expect(r.text).toMatch(/\[exit code 0\]$/)
      const pid = pidFrom(r.text)
      await until(() => !alive(pid), `pid ${pid} to be stopped`)
    }, 60_000)
  }

  it('the setsid case really left the group (so the group kill alone would miss it)', async () => {
    const h = harness()
    const r = await h.call('run_command', {
      command:
        'setsid sleep 300 >/dev/null 2>&1 & sleep 0.2; echo bg:$!; echo pg:$$; echo grp:$(cut -d" " -f5 /proc/$!/stat)',
    })
    const pid = pidFrom(r.text)
    const shellGroup = Number(/pg:(\d+)/.exec(r.text)?.[1])
    const itsGroup = Number(/grp:(\d+)/.exec(r.text)?.[1])
    expect(itsGroup).toBe(pid)
    expect(itsGroup).not.toBe(shellGroup)
    await until(() => !alive(pid), `pid ${pid} to be stopped`)
  }, 60_000)

  it('kills what a running command started when the host process exits', async () => {
    const dir = tempDir()
    const pidFile = path.join(dir, 'bg.pid')
    const module = path.resolve('src-main/adapters/builtin-tools/spawn-group.ts')
    const script = `
      import { runInProcessGroup } from ${JSON.stringify(module)}
      import fs from 'node:fs'
      void runInProcessGroup({
        command: 'setsid sleep 300 >/dev/null 2>&1 & echo $! > ${pidFile}; sleep 300',
        cwd: ${JSON.stringify(dir)},
        env: { PATH: process.env.PATH },
        timeoutMs: 600000,
        signal: new AbortController().signal,
        maxOutputChars: 1000,
      })
      const poll = setInterval(() => {
        if (fs.existsSync(${JSON.stringify(pidFile)}) && fs.readFileSync(${JSON.stringify(pidFile)}, 'utf8').endsWith('\\n')) {
          clearInterval(poll)
          process.exit(0)
        }
      }, 20)
    `
    const tsx = path.resolve('node_modules/.bin/tsx')
    const child = spawn(tsx, ['-e', script], { stdio: ['ignore', 'inherit', 'inherit'] })
    const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
    expect(code).toBe(0)
    const pid = Number(fs.readFileSync(pidFile, 'utf8').trim())
    started.push(pid)
    expect(pgidOf(pid) === pid || !alive(pid)).toBe(true)
    await until(() => !alive(pid), `pid ${pid} to be killed at exit`)
  }, 60_000)
})
