/**
 * run_command with real shells and real process groups (POSIX), under each containment this
 * system has: the process group everywhere, and the PID namespace where Linux allows it
 * (containment.ts). Inside a namespace `$$` is not a pid of this system, so the tests find
 * the command's processes from outside, by a token in their environment.
 */
import { randomBytes } from 'node:crypto'
import fs from 'node:fs'
import path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import type { BuiltinToolsOptions } from '../../src-main/adapters/builtin-tools'
import {
  detectContainment,
  processGroupOnly,
  type Containment,
} from '../../src-main/adapters/builtin-tools/containment'
import { commandEnv } from '../../src-main/adapters/builtin-tools/run-command'
import { HeadTail } from '../../src-main/adapters/builtin-tools/spawn-group'
import { harness as baseHarness, posix } from './harness'
import { alive, pgidOf } from './processes'

const namespace = await detectContainment()
const modes: Containment[] = [
  processGroupOnly(),
  ...(namespace.kind === 'pid-namespace' ? [namespace] : []),
]

/** Process groups a test started, killed afterwards whatever happened. */
const groups: number[] = []
afterEach(() => {
  for (const g of groups.splice(0)) {
    try {
      process.kill(-g, 'SIGKILL')
    } catch {
      // gone
    }
  }
})

/** Whether any live (non-zombie) process is in the group. */
function groupAlive(pgid: number): boolean {
  if (process.platform !== 'linux') {
    try {
      process.kill(-pgid, 0)
      return true
    } catch {
      return false
    }
  }
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = fs.readFileSync(`/proc/${entry}/stat`, 'utf8')
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (fields[0] !== 'Z' && Number(fields[2]) === pgid) return true
    } catch {
      // exited meanwhile
    }
  }
  return false
}

/** The live processes (pids of this system) whose environment holds TEST_TOKEN=token. */
function tokenProcesses(token: string): number[] {
  const needle = Buffer.from(`TEST_TOKEN=${token}\0`)
  const found: number[] = []
  for (const entry of fs.readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue
    try {
      if (fs.readFileSync(`/proc/${entry}/environ`).includes(needle) && alive(Number(entry)))
        found.push(Number(entry))
    } catch {
      // exited meanwhile
    }
  }
  return found
}

/** The command line of a pid of this system (Linux), or '' when it is gone. */
function cmdlineOf(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').replace(/\0/g, ' ')
  } catch {
    return ''
  }
}

/** Waits until processes carrying the token run a program whose command line has `part`. */
async function waitForProcess(token: string, part: string, timeoutMs = 10_000): Promise<number> {
  const end = Date.now() + timeoutMs
  while (Date.now() < end) {
    // a program itself, or (for a part that is not a whole command line) a shell running it
    const pid = tokenProcesses(token).find((p) =>
      part.startsWith('sleep ') ? cmdlineOf(p).trim() === part : cmdlineOf(p).includes(part),
    )
    if (pid !== undefined) return pid
    await new Promise((r) => setTimeout(r, 20))
  }
  throw new Error(`no process running ${part}`)
}

const linux = process.platform === 'linux'

describe.runIf(posix).each(modes.map((m) => [m.kind, m] as const))(
  'run_command (%s)',
  (kind, mode) => {
    const token = randomBytes(8).toString('hex')
    const harness = (opts: Partial<BuiltinToolsOptions> = {}): ReturnType<typeof baseHarness> =>
      baseHarness({
        containment: mode,
        env: { ...process.env, TEST_TOKEN: token },
        ...opts,
        commandEnv: ['TEST_TOKEN', ...(opts.commandEnv ?? [])],
      })

    it('runs in the workspace and shows the output and exit code', async () => {
      const h = harness()
      const r = await h.call('run_command', { command: 'pwd; echo hello' })
      expect(r.isError).toBe(false)
      expect(r.text).toBe(`${fs.realpathSync(h.ws)}\nhello\n[exit code 0]`)
    })

    it('makes a non-zero exit an error result that still shows the output', async () => {
      const h = harness()
      const r = await h.call('run_command', { command: 'echo out; echo err >&2; exit 3' })
      expect(r.isError).toBe(true)
      expect(r.text).toContain('out')
      expect(r.text).toContain('err')
      expect(r.text).toMatch(/\[exit code 3\]$/)
    })

    it('reports a process killed by a signal', async () => {
      const h = harness()
      const r = await h.call('run_command', { command: 'kill -9 $$' })
      expect(r.isError).toBe(true)
      // through the namespace's init, the end comes as a shell reports it
      expect(r.text).toContain(
        kind === 'pid-namespace' ? '[exit code 137 (128 + SIGKILL)]' : '[killed by SIGKILL]',
      )
    })

    it('closes stdin', async () => {
      const h = harness()
      const r = await h.call('run_command', { command: 'cat; echo after-cat' })
      expect(r.text).toBe('after-cat\n[exit code 0]')
    })

    it('passes on only the allowed variables: no keys, tokens, database URLs or agent sockets', async () => {
      const h = harness({
        commandEnv: ['HARMLESS_SETTING'],
        env: {
          ...process.env,
          DATABASE_URL: 'postgres://user:pw-in-url@db/x',
          GH_PAT: 'gh-pat-value',
          SSH_AUTH_SOCK: '/tmp/ssh-agent.sock',
          OPENAI_API_KEY: 'sk-from-openai-var',
          CAIRN_API_KEY: 'sk-from-cairn-var',
          GITHUB_TOKEN: 'ghp-token-value',
          DB_PASSWORD: 'hunter2',
          AWS_SECRET_ACCESS_KEY: 'aws-secret-value',
          MY_CREDENTIALS: 'cred-value',
          HARMLESS_SETTING: 'visible-value',
        },
      })
      const r = await h.call('run_command', { command: 'env' })
      expect(r.isError).toBe(false)
      for (const hidden of [
        'OPENAI_API_KEY',
        'sk-from-openai-var',
        'CAIRN_API_KEY',
        'sk-from-cairn-var',
        'GITHUB_TOKEN',
        'ghp-token-value',
        'hunter2',
        'aws-secret-value',
        'cred-value',
        'pw-in-url',
        'gh-pat-value',
        'SSH_AUTH_SOCK',
      ]) {
        expect(r.text).not.toContain(hidden)
      }
      expect(r.text).toContain('HARMLESS_SETTING=visible-value')
      expect(r.text).toContain('PAGER=cat')
    })

    it("starts from the app's own environment by default, minus its API key", async () => {
      const saved = process.env['OPENAI_API_KEY']
      process.env['OPENAI_API_KEY'] = 'sk-parent-process-key'
      try {
        const h = harness()
        const r = await h.call('run_command', { command: 'env' })
        expect(r.text).not.toContain('OPENAI_API_KEY')
        expect(r.text).not.toContain('sk-parent-process-key')
        expect(r.text).toContain('PATH=')
      } finally {
        if (saved === undefined) delete process.env['OPENAI_API_KEY']
        else process.env['OPENAI_API_KEY'] = saved
      }
      expect(Object.keys(commandEnv({ api_key: 'x', Token: 'y', HOME: '/h' }))).toEqual([
        'HOME',
        'PAGER',
        'GIT_PAGER',
        'GIT_TERMINAL_PROMPT',
      ])
      expect(
        commandEnv({ Path: 'C:\\bin', SystemRoot: 'C:\\Windows', X: '1' }, [], 'win32'),
      ).toEqual({
        Path: 'C:\\bin',
        SystemRoot: 'C:\\Windows',
        PAGER: 'cat',
        GIT_PAGER: 'cat',
        GIT_TERMINAL_PROMPT: '0',
      })
    })

    it.runIf(linux)('kills the whole process group on abort, grandchildren included', async () => {
      const h = harness()
      const ac = new AbortController()
      const pending = h.call(
        'run_command',
        { command: 'sleep 101 & sh -c "sleep 102" ; echo never' },
        ac.signal,
      )
      const child = await waitForProcess(token, 'sleep 101')
      const grandchild = await waitForProcess(token, 'sleep 102')
      const pgid = pgidOf(child)
      groups.push(pgid)
      expect(pgidOf(grandchild)).toBe(pgid)
      expect(alive(pgid)).toBe(true) // the group's leader: the shell, or the namespace's unshare
      ac.abort()
      const r = await pending
      expect(r.isError).toBe(true)
      expect(r.text).toContain('cancelled')
      expect(r.text).not.toContain('never')
      expect(alive(pgid)).toBe(false)
      expect(alive(child)).toBe(false)
      expect(alive(grandchild)).toBe(false)
      expect(groupAlive(pgid)).toBe(false)
    })

    it.runIf(linux)(
      'kills a process group that ignores SIGTERM with SIGKILL after the grace period',
      async () => {
        const h = harness()
        const ac = new AbortController()
        const pending = h.call(
          'run_command',
          { command: "trap '' TERM; while true; do sleep 0.2; done" },
          ac.signal,
        )
        // its first sleep runs once the trap is set
        const pgid = pgidOf(await waitForProcess(token, 'sleep 0.2'))
        groups.push(pgid)
        const t0 = Date.now()
        ac.abort()
        await new Promise((r) => setTimeout(r, 1000))
        expect(groupAlive(pgid)).toBe(true) // SIGTERM ignored: still there within the grace period
        const r = await pending
        const took = Date.now() - t0
        expect(took).toBeGreaterThanOrEqual(1900)
        expect(r.text).toContain('cancelled')
        expect(groupAlive(pgid)).toBe(false)
      },
    )

    it.runIf(linux)('stops a command at its timeout', async () => {
      const h = harness({ limits: { commandTimeoutMs: 2000 } })
      let pgid = 0
      const watch = waitForProcess(token, 'sleep 31').then((p) => (pgid = pgidOf(p)))
      const r = await h.call('run_command', {
        command: 'echo started; sleep 31 & sleep 30',
      })
      await watch
      groups.push(pgid)
      expect(pgid).toBeGreaterThan(1)
      expect(groupAlive(pgid)).toBe(false)
      expect(r.isError).toBe(true)
      expect(r.text).toContain('started')
      expect(r.text).toContain('timed out after 2 s')
      const explicit = await h.call('run_command', { command: 'sleep 30', timeoutMs: 1000 })
      expect(explicit.text).toContain('timed out after 1 s')
    })

    it('keeps the head and the tail of long output and says what was cut', async () => {
      const h = harness({ limits: { commandOutputChars: 1000 } })
      const r = await h.call('run_command', {
        command: "printf 'HEAD-'; head -c 5000 /dev/zero | tr '\\0' x; printf -- '-TAIL\\n'",
      })
      expect(r.isError).toBe(false)
      expect(r.text.startsWith('HEAD-xxx')).toBe(true)
      expect(r.text).toContain('xxx-TAIL\n[exit code 0]')
      expect(r.text).toContain('[... 4011 characters cut from the middle of the output ...]')
      expect(r.text.length).toBeLessThan(1200)
    })

    it('returns when the shell exits even if a background process holds the output open', async () => {
      const h = harness()
      // the background sleep would hold the pipes for 120 s; the result comes when the shell exits
      const r = await h.call('run_command', { command: 'echo bg; sleep 120 &' })
      expect(r.text).toBe('bg\n[exit code 0]')
    })

    it('does not start a command when the call is already cancelled', async () => {
      const h = harness()
      const ac = new AbortController()
      ac.abort()
      const r = await h.call('run_command', { command: 'touch ran.txt' }, ac.signal)
      expect(r.isError).toBe(true)
      expect(r.text).toContain('cancelled')
      expect(fs.existsSync(path.join(h.ws, 'ran.txt'))).toBe(false)
    })

    it('says when the shell cannot be started', async () => {
      const h = harness({ shell: '/nonexistent/shell' })
      const r = await h.call('run_command', { command: 'echo hi' })
      expect(r.isError).toBe(true)
      expect(r.text).toContain('could not be started')
    })
  },
)

describe('output budget', () => {
  it('keeps everything under the budget', () => {
    const o = new HeadTail(10)
    o.push('abc')
    o.push('defg')
    expect(o.result()).toEqual({ text: 'abcdefg', cut: 0 })
  })

  it('keeps head and tail across many chunks', () => {
    const o = new HeadTail(10)
    for (const c of '0123456789abcdefghijklmnopqrstuvwxyz') o.push(c)
    expect(o.result()).toEqual({
      text: '01234\n[... 26 characters cut from the middle of the output ...]\nvwxyz',
      cut: 26,
    })
  })
})
