/**
 * Which containment run_command uses: a PID namespace where the system lets Cairn make one,
 * process groups otherwise (detection is injectable, so a system that forbids namespaces is
 * played here), and a command still runs and still loses its background processes under
 * the fallback.
 */
import fs from 'node:fs'
import { randomInt } from 'node:crypto'
import { describe, expect, it } from 'vitest'
import { detectContainment } from '../../src-main/adapters/builtin-tools/containment'
import { harness } from './harness'

const found = (name: string): string => `/usr/bin/${name}`

describe('detecting the containment', () => {
  it('uses process groups where a namespace cannot be made, and says why', async () => {
    const tried: string[][] = []
    const forbidden = await detectContainment({
      platform: 'linux',
      root: false,
      findProgram: found,
      tryPrefix: (prefix) => {
        tried.push(prefix)
        return Promise.resolve(false)
      },
    })
    expect(forbidden.kind).toBe('process-group')
    expect(forbidden.prefix).toEqual([])
    expect(forbidden.description).toContain('unprivileged user')
    // an unprivileged user needs a user namespace for the PID namespace and /proc
    expect(tried).toHaveLength(1)
    expect(tried[0]).toEqual(
      expect.arrayContaining(['--user', '--map-current-user', '--pid', '--kill-child']),
    )

    const noUnshare = await detectContainment({ platform: 'linux', findProgram: () => null })
    expect(noUnshare.kind).toBe('process-group')
    expect(noUnshare.description).toContain('unshare was not found')

    const mac = await detectContainment({ platform: 'darwin' })
    expect(mac.kind).toBe('process-group')
  })

  it('prefers no user namespace for root, ties the namespace to Cairn with setpriv', async () => {
    const tried: string[][] = []
    const root = await detectContainment({
      platform: 'linux',
      root: true,
      findProgram: found,
      tryPrefix: (prefix) => {
        tried.push(prefix)
        return Promise.resolve(true)
      },
    })
    expect(root.kind).toBe('pid-namespace')
    expect(tried).toHaveLength(1)
    expect(root.prefix.slice(0, 4)).toEqual([
      '/usr/bin/setpriv',
      '--pdeathsig',
      'KILL',
      '/usr/bin/unshare',
    ])
    expect(root.prefix).not.toContain('--user')
    expect(root.description).toContain('dies with Cairn')

    // root in a container without the capability: the user namespace is the second try
    const second = await detectContainment({
      platform: 'linux',
      root: true,
      findProgram: (name) => (name === 'setpriv' ? null : found(name)),
      tryPrefix: (prefix) => Promise.resolve(prefix.includes('--user')),
    })
    expect(second.kind).toBe('pid-namespace')
    expect(second.prefix[0]).toBe('/usr/bin/unshare')
    expect(second.description).toContain('user namespace')
    expect(second.description).toContain('setpriv was not found')
  })
})

describe.runIf(process.platform === 'linux')('under the fallback', () => {
  it('a command runs as before and its background processes are stopped', async () => {
    const fallback = await detectContainment({ tryPrefix: () => Promise.resolve(false) })
    expect(fallback.kind).toBe('process-group')
    const seen: { kind: string; description: string }[] = []
    const h = harness({ containment: fallback, onContainment: (c) => seen.push(c) })
    const sleep = `sleep ${randomInt(100_000, 999_999)}`
    const r = await h.call('run_command', {
      command: `pwd; ${sleep} & echo bg:$!; echo err >&2; exit 5`,
    })
    expect(r.text.startsWith(`${fs.realpathSync(h.ws)}\nbg:`)).toBe(true)
    expect(r.text).toContain('\nerr\n') // stderr too (its order against stdout is not fixed)
    expect(r.text).toMatch(/\n\[exit code 5\]$/)
    // the host hears which containment the command had, to say it in a log line
    expect(seen).toEqual([{ kind: 'process-group', description: fallback.description }])
    const pid = Number(/bg:(\d+)/.exec(r.text)?.[1])
    const end = Date.now() + 30_000
    const alive = (): boolean => {
      try {
        const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8')
        return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
      } catch {
        return false
      }
    }
    while (alive() && Date.now() < end) await new Promise((res) => setTimeout(res, 50))
    expect(alive()).toBe(false)
  }, 60_000)
})
