import { mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import {
  ALLOWLIST,
  compare,
  explains,
  stage,
  toFinding,
  validateAllowlist,
  type AllowlistEntry,
  type Finding,
} from '../../scripts/electronegativity.mjs'
import {
  electronBinary,
  main as electronNative,
  MISSING_BINARY,
  isUpToDate,
  missingBuildTools,
  wantedBuild,
} from '../../scripts/electron-native.mjs'

const finding = (over: Partial<Finding> = {}): Finding => ({
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'main/index.js',
  line: 12,
  sample: 'guardWebContents(contents, origins, (url) => shell.openExternal(url))',
  severity: 'MEDIUM',
  confidence: 'TENTATIVE',
  description: 'Review the use of openExternal',
  ...over,
})
const entry = (over: Partial<AllowlistEntry> = {}): AllowlistEntry => ({
  check: 'OPEN_EXTERNAL_JS_CHECK',
  file: 'main/index.js',
  match: 'shell.openExternal(url)',
  reason: 'only https: and mailto:',
  ...over,
})

describe('electronegativity: the allowlist comparison', () => {
  it('passes a finding the allowlist explains, with its reason', () => {
    const r = compare([finding()], [entry()])
    expect(r.unexplained).toEqual([])
    expect(r.explained).toEqual([{ finding: finding(), reason: 'only https: and mailto:' }])
    expect(r.unused).toEqual([])
  })

  it('fails a finding that is not in the allowlist', () => {
    const sandbox = finding({ check: 'SANDBOX_JS_CHECK', sample: 'sandbox: false,' })
    const r = compare([finding(), sandbox], [entry()])
    expect(r.unexplained).toEqual([sandbox])
  })

  it('matches on check, file and the flagged line, not on line numbers', () => {
    expect(explains(entry(), finding({ line: 999 }))).toBe(true)
    expect(explains(entry(), finding({ file: 'preload/index.js' }))).toBe(false)
    expect(explains(entry(), finding({ sample: 'shell.openExternal(userInput)' }))).toBe(false)
    expect(explains(entry({ match: undefined }), finding({ sample: 'anything' }))).toBe(true)
  })

  it('reports entries that matched nothing', () => {
    const stale = entry({ check: 'AUXCLICK_JS_CHECK' })
    expect(compare([], [stale]).unused).toEqual([stale])
  })

  it('refuses entries without a reason', () => {
    expect(() => validateAllowlist([{ check: 'X', file: 'main/index.js' }])).toThrow(/reason/)
    expect(() => validateAllowlist([{ check: 'X', file: 'f', reason: '  ' }])).toThrow(/reason/)
    expect(() => validateAllowlist({})).toThrow(/array/)
    expect(() => validateAllowlist([entry({ match: '' })])).toThrow(/match/)
  })

  it('the reviewed allowlist is valid and explains every entry', () => {
    const list = validateAllowlist(JSON.parse(readFileSync(ALLOWLIST, 'utf8')))
    expect(list.length).toBeGreaterThan(0)
    for (const e of list) expect(e.reason.length).toBeGreaterThan(30)
  })

  it('normalizes the tool’s issues', () => {
    const f = toFinding({
      id: 'CSP_GLOBAL_CHECK',
      file: 'renderer\\index.html',
      location: { line: 5, column: 0 },
      sample: "  default-src 'self'  ",
      severity: { name: 'LOW' },
      confidence: { name: 'FIRM' },
      description: 'd',
    })
    expect(f).toEqual({
      check: 'CSP_GLOBAL_CHECK',
      file: 'renderer/index.html',
      line: 5,
      sample: "default-src 'self'",
      severity: 'LOW',
      confidence: 'FIRM',
      description: 'd',
    })
    expect(toFinding({ id: 'LIMIT_NAVIGATION_GLOBAL_CHECK' }).file).toBe('N/A')
  })

  it('stages the CommonJS preload as .js, which the tool would otherwise skip', () => {
    const out = mkdtempSync(join(tmpdir(), 'cairn-out-'))
    mkdirSync(join(out, 'main'))
    mkdirSync(join(out, 'preload'))
    mkdirSync(join(out, 'renderer'))
    writeFileSync(join(out, 'main', 'index.js'), '// main')
    writeFileSync(join(out, 'main', 'index.js.map'), '{}')
    writeFileSync(join(out, 'preload', 'index.cjs'), '// preload')
    writeFileSync(join(out, 'renderer', 'index.html'), '<html></html>')
    const dest = mkdtempSync(join(tmpdir(), 'cairn-stage-'))
    stage(out, dest)
    expect(readdirSync(join(dest, 'main'))).toEqual(['index.js'])
    expect(readFileSync(join(dest, 'preload', 'index.js'), 'utf8')).toBe('// preload')
    expect(readdirSync(join(dest, 'renderer'))).toEqual(['index.html'])
    expect(() => stage(join(out, 'nothing'), dest)).toThrow(/npm run build/)
  })
})

describe('electron-native: is the Electron build of better-sqlite3 up to date?', () => {
  const wanted = { electron: '39.8.10', betterSqlite3: '12.11.1', platform: 'linux', arch: 'x64' }

  it('is when the binary exists and the stamp matches', () => {
    expect(isUpToDate({ ...wanted, builtAt: 'x' }, wanted, true)).toBe(true)
  })

  it.each([
    ['no binary', { ...wanted }, false],
    ['no stamp', null, true],
    ['another Electron', { ...wanted, electron: '38.1.0' }, true],
    ['another better-sqlite3', { ...wanted, betterSqlite3: '12.10.0' }, true],
    ['another arch', { ...wanted, arch: 'arm64' }, true],
    ['another platform', { ...wanted, platform: 'darwin' }, true],
  ])('is not with %s', (_name, stamp, exists) => {
    expect(isUpToDate(stamp, wanted, exists)).toBe(false)
  })

  it('wants the installed Electron and better-sqlite3 versions', () => {
    const nm = mkdtempSync(join(tmpdir(), 'cairn-nm-'))
    for (const [name, version] of [
      ['electron', '40.1.2'],
      ['better-sqlite3', '12.0.0'],
    ]) {
      mkdirSync(join(nm, name!))
      writeFileSync(join(nm, name!, 'package.json'), JSON.stringify({ name, version }))
    }
    expect(wantedBuild({ nodeModules: nm, platform: 'linux', arch: 'arm64' })).toEqual({
      electron: '40.1.2',
      betterSqlite3: '12.0.0',
      platform: 'linux',
      arch: 'arm64',
    })
    expect(() => wantedBuild({ nodeModules: join(nm, 'none') })).toThrow(/npm install/)
  })

  it('knows when the Electron binary was not downloaded', () => {
    const nm = mkdtempSync(join(tmpdir(), 'cairn-nm-'))
    mkdirSync(join(nm, 'electron', 'dist'), { recursive: true })
    expect(electronBinary(nm)).toBeNull()
    writeFileSync(join(nm, 'electron', 'path.txt'), 'electron')
    expect(electronBinary(nm)).toBeNull() // path.txt but no binary
    writeFileSync(join(nm, 'electron', 'dist', 'electron'), '')
    expect(electronBinary(nm)).toBe(join(nm, 'electron', 'dist', 'electron'))
  })

  it('npm start without the Electron binary says how to get it, and offers npm run web', async () => {
    await expect(
      electronNative(['--require-binary'], { electronBinary: () => null }),
    ).rejects.toThrow(MISSING_BINARY)
    expect(MISSING_BINARY).toMatch(/Electron binary is not installed/)
    expect(MISSING_BINARY).toMatch(/node node_modules\/electron\/install\.js/)
    expect(MISSING_BINARY).toMatch(/npm run web/)
    // npm install fails whole when it cannot download the binary: the way to browser mode says how to install
    expect(MISSING_BINARY).toMatch(/ELECTRON_SKIP_BINARY_DOWNLOAD=1 npm install && npm run web/)
  })

  it('names the missing build tools and how to get them', () => {
    expect(missingBuildTools(() => true, 'linux')).toBeNull()
    const none = missingBuildTools(() => false, 'linux')
    expect(none).toMatch(/a C\+\+ compiler, make, Python 3 are missing/)
    expect(none).toMatch(/build-essential/)
    expect(missingBuildTools((c) => c !== 'make', 'darwin')).toMatch(
      /make is missing.*xcode-select/,
    )
    expect(missingBuildTools(() => false, 'win32')).toBeNull()
  })
})
