/** Command lookup for stdio servers: login-shell PATH, search dirs, resolution, minimal env. */
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { delimiter, join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  loginShellPath,
  minimalEnv,
  parseMarkedPath,
  resetLoginShellPathCache,
  resolveCommand,
  searchDirs,
} from '../../src-main/adapters/mcp/command-resolver'
import { isAlive, signalGroup } from '../../src-main/adapters/mcp/process-tree'
import { nvmCurrentBin } from '../../src-main/adapters/mcp/tool-dirs'

const posix = process.platform !== 'win32'
let dir: string
const pidFiles: string[] = []

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'cairn-resolver-'))
  resetLoginShellPathCache()
})

afterEach(() => {
  for (const f of pidFiles.splice(0)) {
    try {
      signalGroup(Number(readFileSync(f, 'utf8').trim()), 'SIGKILL')
    } catch {
      // never written
    }
  }
  rmSync(dir, { recursive: true, force: true })
})

function script(name: string, body: string, mode = 0o755): string {
  const p = join(dir, name)
  writeFileSync(p, body)
  chmodSync(p, mode)
  return p
}

describe.runIf(posix)('loginShellPath', () => {
  it('runs the shell with -ilc and parses PATH between the markers, ignoring rc noise', async () => {
    const shell = script(
      'fake-shell',
      [
        '#!/bin/sh',
        'echo "Welcome! motd from .zshrc"',
        "printf 'noise without newline'",
        '[ "$1" = "-ilc" ] || { echo "bad flags: $1"; exit 2; }',
        'PATH="/opt/fake/bin:/usr/bin:relative/dir::/bin"',
        'eval "$2"',
        'echo "goodbye from .zlogout"',
        '',
      ].join('\n'),
    )
    expect(await loginShellPath({ shell })).toEqual(['/opt/fake/bin', '/usr/bin', '/bin'])
  })

  it('caches the answer per shell', async () => {
    const shell = script('cached-shell', '#!/bin/sh\nPATH=/first/bin\neval "$2"\n')
    expect(await loginShellPath({ shell })).toEqual(['/first/bin'])
    script('cached-shell', '#!/bin/sh\nPATH=/second/bin\neval "$2"\n')
    expect(await loginShellPath({ shell })).toEqual(['/first/bin'])
    resetLoginShellPathCache()
    expect(await loginShellPath({ shell })).toEqual(['/second/bin'])
  })

  it('takes the shell from env.SHELL', async () => {
    const shell = script('env-shell', '#!/bin/sh\nPATH=/from/env/shell\neval "$2"\n')
    expect(await loginShellPath({ env: { SHELL: shell } })).toEqual(['/from/env/shell'])
  })

  it('falls back to /bin/sh -lc when the shell fails without printing the markers', async () => {
    const shell = script('broken-shell', '#!/bin/sh\necho "I am not a real shell"\nexit 1\n')
    const dirs = await loginShellPath({ shell, env: { PATH: '/usr/bin:/bin' } })
    expect(dirs.length).toBeGreaterThan(0)
    expect(dirs.every((d) => d.startsWith('/'))).toBe(true)
  })

  it('returns [] (never throws) when the shell hangs, and kills it', async () => {
    const pidFile = join(dir, 'hang.pid')
    pidFiles.push(pidFile)
    const shell = script('hanging-shell', `#!/bin/sh\necho $$ > ${pidFile}\nexec sleep 30\n`)
    const started = Date.now()
    expect(await loginShellPath({ shell, timeoutMs: 300 })).toEqual([])
    // given up on, not waited out: the shell would have slept 30 s
    expect(Date.now() - started).toBeLessThan(15_000)
    const pid = Number(readFileSync(pidFile, 'utf8').trim())
    await new Promise((r) => setTimeout(r, 100))
    expect(isAlive(pid)).toBe(false)
  })

  it('parseMarkedPath takes the last marked PATH and null without markers', () => {
    expect(parseMarkedPath('x __CAIRN_PATH_START__/a:/b__CAIRN_PATH_END__ y')).toEqual(['/a', '/b'])
    expect(
      parseMarkedPath(
        '__CAIRN_PATH_START__/a__CAIRN_PATH_END__\n__CAIRN_PATH_START__/c__CAIRN_PATH_END__',
      ),
    ).toEqual(['/c'])
    expect(parseMarkedPath('no markers here')).toBeNull()
  })
})

describe('searchDirs', () => {
  it('orders the shell PATH, then the app PATH, then extras and well-known dirs, without duplicates', () => {
    const extra = mkdtempSync(join(dir, 'extra-'))
    const dirs = searchDirs(
      ['/shell/one', '/shared', '/shell/two/'],
      ['/shared', '/app/one', '', 'relative'].join(delimiter),
      [extra, join(dir, 'missing-extra')],
    )
    expect(dirs.slice(0, 5)).toEqual(['/shell/one', '/shared', '/shell/two', '/app/one', extra])
    expect(new Set(dirs).size).toBe(dirs.length)
    expect(dirs).not.toContain('relative')
    expect(dirs).not.toContain(join(dir, 'missing-extra'))
    if (posix) expect(dirs).toContain('/usr/bin')
  })

  it("finds nvm's default node version", () => {
    const nvm = join(dir, 'nvm')
    for (const v of ['v18.20.1', 'v20.5.0', 'v20.11.1', 'v22.1.0']) {
      mkdirSync(join(nvm, 'versions', 'node', v, 'bin'), { recursive: true })
    }
    mkdirSync(join(nvm, 'alias'))
    writeFileSync(join(nvm, 'alias', 'default'), '20\n')
    expect(nvmCurrentBin(dir, nvm)).toBe(join(nvm, 'versions', 'node', 'v20.11.1', 'bin'))
    writeFileSync(join(nvm, 'alias', 'default'), 'lts/*\n')
    expect(nvmCurrentBin(dir, nvm)).toBe(join(nvm, 'versions', 'node', 'v22.1.0', 'bin'))
    expect(nvmCurrentBin(dir, join(dir, 'no-nvm'))).toBeNull()
  })
})

describe.runIf(posix)('resolveCommand', () => {
  it('finds an executable in the search dirs, first dir first', () => {
    const a = mkdtempSync(join(dir, 'a-'))
    const b = mkdtempSync(join(dir, 'b-'))
    writeFileSync(join(b, 'mytool'), '#!/bin/sh\n')
    chmodSync(join(b, 'mytool'), 0o755)
    expect(resolveCommand('mytool', [a, b])).toEqual({ ok: true, path: join(b, 'mytool') })
    writeFileSync(join(a, 'mytool'), '#!/bin/sh\n')
    chmodSync(join(a, 'mytool'), 0o755)
    expect(resolveCommand('mytool', [a, b])).toEqual({ ok: true, path: join(a, 'mytool') })
  })

  it('rejects a file that is not executable, and says so', () => {
    const a = mkdtempSync(join(dir, 'a-'))
    writeFileSync(join(a, 'plain'), 'not a program')
    chmodSync(join(a, 'plain'), 0o644)
    const r = resolveCommand('plain', [a])
    expect(r.ok).toBe(false)
    if (!r.ok) expect(r.error).toContain(`not executable: ${join(a, 'plain')}`)
    const direct = resolveCommand(join(a, 'plain'), [])
    expect(direct.ok).toBe(false)
    if (!direct.ok) expect(direct.error).toMatch(/is not executable/)
  })

  it('names the command and every directory searched when it is missing', () => {
    const dirs = [mkdtempSync(join(dir, 'a-')), mkdtempSync(join(dir, 'b-')), '/nonexistent/bin']
    const r = resolveCommand('cairn-missing-tool', dirs)
    expect(r.ok).toBe(false)
    if (!r.ok) {
      expect(r.error).toContain('"cairn-missing-tool"')
      for (const d of dirs) expect(r.error).toContain(d)
    }
  })

  it('checks absolute and relative paths directly', () => {
    const tool = script('direct-tool', '#!/bin/sh\n')
    expect(resolveCommand(tool, [])).toEqual({ ok: true, path: tool })
    expect(resolveCommand('./direct-tool', [], process.platform, dir)).toEqual({
      ok: true,
      path: tool,
    })
    const missing = resolveCommand(join(dir, 'nope'), ['/usr/bin'])
    expect(missing.ok).toBe(false)
    if (!missing.ok) expect(missing.error).toContain('does not exist')
    expect(resolveCommand('', ['/usr/bin']).ok).toBe(false)
  })

  it('does not take a directory for a command', () => {
    mkdirSync(join(dir, 'sub', 'tooldir'), { recursive: true })
    expect(resolveCommand('tooldir', [join(dir, 'sub')]).ok).toBe(false)
  })
})

describe('minimalEnv', () => {
  const base: NodeJS.ProcessEnv = {
    HOME: '/home/u',
    USER: 'u',
    LOGNAME: 'u',
    SHELL: '/bin/zsh',
    TERM: 'xterm-256color',
    LANG: 'en_US.UTF-8',
    PATH: '/app/path/only',
    OPENAI_API_KEY: 'sk-secret',
    CAIRN_API_KEY: 'cairn-secret',
    RANDOM_VARIABLE: 'random',
    NODE_OPTIONS: '--inspect',
    ELECTRON_RUN_AS_NODE: '1',
    BASH_FUNC_x: '() { evil; }',
  }

  it.runIf(posix)('keeps only PATH and the user variables, plus the server env', () => {
    const env = minimalEnv({
      pathDirs: ['/a/bin', '/b/bin'],
      serverEnv: { GITHUB_TOKEN: 'server-token', LANG: 'C' },
      base,
    })
    expect(env).toEqual({
      PATH: `/a/bin${delimiter}/b/bin`,
      HOME: '/home/u',
      USER: 'u',
      LOGNAME: 'u',
      SHELL: '/bin/zsh',
      TERM: 'xterm-256color',
      LANG: 'C',
      GITHUB_TOKEN: 'server-token',
    })
  })

  it('never copies secrets or other variables from the app environment', () => {
    const env = minimalEnv({ pathDirs: [], base })
    for (const key of [
      'OPENAI_API_KEY',
      'CAIRN_API_KEY',
      'RANDOM_VARIABLE',
      'NODE_OPTIONS',
      'ELECTRON_RUN_AS_NODE',
    ]) {
      expect(env).not.toHaveProperty(key)
    }
    expect(Object.values(env)).not.toContain('sk-secret')
  })

  it('skips variables that are not set and exported shell functions', () => {
    const env = minimalEnv({ pathDirs: ['/x'], base: { HOME: '/h', TERM: '() { evil; }' } })
    expect(env).toEqual({ HOME: '/h', PATH: '/x' })
  })
})
