/**
 * What `npm run try:servers` prepares before Cairn starts: the twelve packages installed
 * once into a cache folder, a temporary folder with what their calls work on, and the MCP
 * configuration (Claude Desktop's format, as Cairn reads it) that starts them all.
 */
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { SERVERS, type Work } from './servers'

/** outside node_modules: `npm ci` (scripts/test.sh runs it) empties that folder */
export const CACHE_DIR = join(process.cwd(), '.cache', 'cairn-servers')
const MARKER = join(CACHE_DIR, 'installed.json')

/** the pinned packages, as `name@version` */
export function pinned(): string[] {
  return SERVERS.map((s) => `${s.pkg}@${s.version}`)
}

/**
 * Installs the pinned packages into the cache folder, unless the same list was installed
 * there before. No package's install script runs (one reports the install over the
 * network, others download a browser or a ripgrep binary), except sqlite3's, which builds
 * its native module here from source.
 */
export function ensureInstalled(log: (m: string) => void): void {
  const wanted = JSON.stringify(pinned())
  if (existsSync(MARKER) && readFileSync(MARKER, 'utf8') === wanted) return
  mkdirSync(CACHE_DIR, { recursive: true })
  writeFileSync(
    join(CACHE_DIR, 'package.json'),
    JSON.stringify({ name: 'cairn-try-servers', private: true, version: '0.0.0' }, null, 2),
  )
  const env = {
    ...process.env,
    PUPPETEER_SKIP_DOWNLOAD: '1',
    PLAYWRIGHT_SKIP_BROWSER_DOWNLOAD: '1',
    ELECTRON_SKIP_BINARY_DOWNLOAD: '1',
  }
  log(`Installing ${SERVERS.length} MCP servers into ${CACHE_DIR} (first run only)…`)
  npm(
    [
      'install',
      '--prefix',
      CACHE_DIR,
      '--ignore-scripts',
      '--no-audit',
      '--no-fund',
      '--save-exact',
      ...pinned(),
    ],
    env,
  )
  log('Building sqlite3 for the SQLite server…')
  npm(['rebuild', 'sqlite3', '--prefix', CACHE_DIR], {
    ...env,
    npm_config_build_from_source: 'true',
  })
  writeFileSync(MARKER, wanted)
}

function npm(args: string[], env: NodeJS.ProcessEnv): void {
  const r = spawnSync('npm', args, { env, stdio: ['ignore', 'pipe', 'pipe'], encoding: 'utf8' })
  if (r.status !== 0) {
    throw new Error(
      `npm ${args.slice(0, 2).join(' ')} failed (exit ${r.status ?? r.signal}):\n${(r.stderr || r.stdout).slice(-4000)}`,
    )
  }
}

export interface Prepared {
  work: Work
  configFile: string
  dataDir: string
  close(): Promise<void>
}

const PAGE = `<!doctype html><html><head><title>Trail marker</title></head>
<body><h1>Trail marker</h1><p>Cairns mark trails.</p></body></html>`

/** The temporary folder, the page server and the MCP configuration of one run. */
export async function prepare(): Promise<Prepared> {
  const root = mkdtempSync(join(tmpdir(), 'cairn-try-servers-'))
  const workspace = join(root, 'workspace')
  const commanderHome = join(root, 'commander-home')
  const dataDir = join(root, 'data')
  // Cairn makes its data folder itself
  for (const d of [workspace, commanderHome]) mkdirSync(d, { recursive: true })
  writeFileSync(join(workspace, 'notes.txt'), 'cairns mark trails\n')
  writeFileSync(join(workspace, 'hello.js'), 'const unused = 1\nconsole.log("hello")\n')
  writeFileSync(
    join(workspace, 'eslint.config.js'),
    'export default [{ rules: { "no-unused-vars": "error" } }]\n',
  )
  writeFileSync(join(workspace, 'package.json'), '{ "type": "module" }\n')
  git(workspace, ['init', '-q', '-b', 'main'])
  git(workspace, ['add', '.'])
  git(workspace, [
    '-c',
    'user.name=Cairn',
    '-c',
    'user.email=cairn@example.invalid',
    '-c',
    'commit.gpgsign=false',
    'commit',
    '-q',
    '-m',
    'First marker',
  ])
  // Desktop Commander reads its settings from its home folder: no telemetry there
  mkdirSync(join(commanderHome, '.claude-server-commander'), { recursive: true })
  writeFileSync(
    join(commanderHome, '.claude-server-commander', 'config.json'),
    JSON.stringify({ telemetryEnabled: false, allowedDirectories: [workspace] }),
  )

  const page = await servePage()
  const work: Work = {
    root,
    workspace,
    pageUrl: page.url,
    memoryFile: join(root, 'memory.jsonl'),
    database: join(root, 'trails.sqlite'),
    commanderHome,
    nowhere: 'http://127.0.0.1:9/',
  }
  const bin = join(CACHE_DIR, 'node_modules', '.bin')
  const mcpServers = Object.fromEntries(
    SERVERS.map((s) => {
      const env = s.env?.(work)
      return [
        s.name,
        { command: join(bin, s.bin), args: s.args(work), ...(env ? { env } : {}), cwd: workspace },
      ]
    }),
  )
  const configFile = join(root, 'mcp.json')
  writeFileSync(configFile, JSON.stringify({ mcpServers }, null, 2))
  return {
    work,
    configFile,
    dataDir,
    close: () => new Promise<void>((resolve) => page.server.close(() => resolve())),
  }
}

function git(cwd: string, args: string[]): void {
  const r = spawnSync('git', args, { cwd, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`git ${args.join(' ')} failed: ${r.stderr}`)
}

async function servePage(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) => {
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' })
    res.end(PAGE)
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const addr = server.address()
  if (!addr || typeof addr !== 'object') throw new Error('the page server has no port')
  return { url: `http://127.0.0.1:${addr.port}/`, server }
}
