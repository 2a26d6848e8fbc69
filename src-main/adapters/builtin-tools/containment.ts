/**
 * How run_command keeps what a command starts from outliving it.
 *
 * - `pid-namespace` (Linux): the command runs in a new PID namespace, started with
 *   util-linux's `unshare --pid --fork --kill-child --mount-proc` (plus `--user
 *   --map-current-user` when Cairn is not root). A small `/bin/sh` is the namespace's
 *   first process (its "init"); the command's shell is its child. When the shell exits,
 *   the init sends SIGTERM to everything else in the namespace, waits up to a second and
 *   exits, and the kernel then kills every process left in the namespace, whatever it did
 *   with sessions, process groups or its environment. `setpriv --pdeathsig KILL` makes the
 *   kernel kill `unshare` (and so the namespace) when Cairn itself dies, even by SIGKILL.
 *   Inside, process ids are the namespace's own (the shell is pid 2) and /proc shows only
 *   the command's processes. A shell killed by signal N reports exit code 128+N, as a shell
 *   reports its children.
 * - `process-group`: the command's shell leads a process group (see spawn-group.ts), and
 *   what leaves the group is found through the environment marker on Linux. Used where the
 *   namespace cannot be made: not Linux, no `unshare`, or unprivileged user namespaces
 *   forbidden (e.g. AppArmor's restriction on recent Ubuntu, a container's seccomp filter).
 *
 * Which one works is found once per process, by starting a namespace that runs `true`,
 * and kept.
 */
import { execFile } from 'node:child_process'
import fs from 'node:fs'

export type ContainmentKind = 'pid-namespace' | 'process-group'

export interface Containment {
  kind: ContainmentKind
  /** the program and arguments that go before the shell's own (empty for process-group) */
  prefix: string[]
  /** one sentence for a log line: what is in effect, and why */
  description: string
  /**
   * the kernel kills the command's processes when Cairn dies, even by SIGKILL (a namespace
   * under `setpriv --pdeathsig`): nothing is left for the next start to find
   */
  diesWithCairn?: boolean
}

/** The namespace's init: runs the shell (its arguments), then stops what it left behind. */
const INIT_SCRIPT = [
  // the init's own messages ("Killed", kill's errors) must not mix with the command's output
  'exec 3>&2 2>/dev/null',
  '(exec "$@" 2>&3 3>&-)',
  's=$?',
  // SIGTERM to every other process of the namespace; up to a second for them to go
  'if kill -15 -1; then i=0; while [ $i -lt 10 ] && kill -0 -1; do sleep 0.1; i=$((i+1)); done; fi',
  'exit $s',
].join('\n')

const SEARCH_DIRS = ['/usr/bin', '/bin', '/usr/sbin', '/sbin']

function findProgram(name: string): string | null {
  for (const dir of SEARCH_DIRS) {
    const p = `${dir}/${name}`
    try {
      fs.accessSync(p, fs.constants.X_OK)
      return p
    } catch {
      // not here
    }
  }
  return null
}

const processGroup = (why: string): Containment => ({
  kind: 'process-group',
  prefix: [],
  description: `run_command contains background processes by process group only: ${why}; a process that leaves its group and clears its environment can outlive its command`,
})

/** Starts `prefix` with a shell that prints its pid: 2 (its init is 1) when the namespace works. */
function tryPrefix(prefix: string[]): Promise<boolean> {
  return new Promise((resolve) => {
    const [file, ...args] = prefix
    if (file === undefined) return resolve(false)
    execFile(
      file,
      [...args, '/bin/sh', '-c', 'echo $$'],
      { timeout: 10_000, env: { PATH: '/usr/bin:/bin' } },
      (err, stdout) => resolve(err === null && stdout.trim() === '2'),
    )
  })
}

/** The namespace prefixes to try, most preferred first. */
function namespacePrefixes(opts: {
  unshare: string
  setpriv: string | null
  root: boolean
}): string[][] {
  const base = ['--pid', '--fork', '--kill-child', '--mount-proc']
  const variants = opts.root
    ? [base, ['--user', '--map-current-user', ...base]]
    : [['--user', '--map-current-user', ...base]]
  const init = ['--', '/bin/sh', '-c', INIT_SCRIPT, 'cairn-init']
  return variants.map((flags) => [
    ...(opts.setpriv ? [opts.setpriv, '--pdeathsig', 'KILL'] : []),
    opts.unshare,
    ...flags,
    ...init,
  ])
}

/** What detection looks at (injectable, so that tests can play a system that forbids it). */
export interface DetectOptions {
  platform?: NodeJS.Platform
  root?: boolean
  findProgram?: (name: string) => string | null
  tryPrefix?: (prefix: string[]) => Promise<boolean>
}

/** Finds the containment this process can use (no cache; see `containment()`). */
export async function detectContainment(opts: DetectOptions = {}): Promise<Containment> {
  const platform = opts.platform ?? process.platform
  const find = opts.findProgram ?? findProgram
  const works = opts.tryPrefix ?? tryPrefix
  if (platform !== 'linux') return processGroup(`${platform} has no PID namespaces`)
  const unshare = find('unshare')
  if (!unshare) return processGroup("util-linux's unshare was not found")
  const setpriv = find('setpriv')
  const root = opts.root ?? process.getuid?.() === 0
  for (const prefix of namespacePrefixes({ unshare, setpriv, root })) {
    if (await works(prefix)) {
      const user = prefix.includes('--user') ? ' in a user namespace' : ''
      const death = setpriv
        ? 'and it dies with Cairn'
        : 'but setpriv was not found, so it outlives a Cairn that is killed until the next start'
      return {
        kind: 'pid-namespace',
        prefix,
        description: `run_command runs each command in its own PID namespace${user}, ${death}`,
        diesWithCairn: setpriv !== null,
      }
    }
  }
  return processGroup(
    root
      ? 'a PID namespace could not be created'
      : 'this system does not let an unprivileged user create a user and PID namespace',
  )
}

let cached: Promise<Containment> | undefined

/** Set to `process-group` to keep commands out of PID namespaces (e.g. for `sudo`). */
const CONTAINMENT_ENV = 'CAIRN_COMMAND_CONTAINMENT'

/** The containment in effect for run_command, found on first use and kept. */
export function containment(): Promise<Containment> {
  cached ??=
    process.env[CONTAINMENT_ENV] === 'process-group'
      ? Promise.resolve(processGroup(`${CONTAINMENT_ENV}=process-group asks for it`))
      : detectContainment()
  return cached
}

/** The process-group containment, for callers that force it. */
export function processGroupOnly(): Containment {
  return processGroup('chosen by the caller')
}
