/** Starts browser mode (`node out/web/index.js`) as a user would, against a scripted model. */
import { spawn, type ChildProcess } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { startScriptedServer, type ScriptedServer } from '../../support/openai-server'

export const EVERYTHING = join(
  process.cwd(),
  'node_modules',
  '@modelcontextprotocol',
  'server-everything',
  'dist',
  'index.js',
)

export interface WebHost {
  /** the printed address, with the token */
  url: string
  /** the address without the token */
  base: string
  model: ScriptedServer
  dataDir: string
  /** stops the host (and its MCP servers); `keepData` leaves the data directory for a restart */
  stop(keepData?: boolean): Promise<void>
  /** starts the host again on the same data directory (and port, when it is free) */
  restart(): Promise<WebHost>
}

interface Options {
  mcp?: boolean
  /** MCP servers of this run (`--mcp-config`), Claude Desktop format; over `mcp` */
  mcpServers?: Record<string, unknown>
  /** environment variables for the host, over the defaults (a value of '' removes one) */
  env?: Record<string, string>
  model?: ScriptedServer
  dataDir?: string
  port?: number
  /** let browser mode open the browser (no `--no-open`), with this as BROWSER */
  browser?: string
}

export async function startWebHost(opts: Options = {}): Promise<WebHost> {
  const model = opts.model ?? (await startScriptedServer({ models: ['m'] }))
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'cairn-e2e-'))
  const args = [
    join(process.cwd(), 'out', 'web', 'index.js'),
    '--port',
    String(opts.port ?? 0),
    '--data-dir',
    join(dataDir, 'data'),
    ...(opts.browser ? [] : ['--no-open']),
  ]
  if (opts.mcp || opts.mcpServers) {
    const file = join(dataDir, 'mcp.json')
    writeFileSync(
      file,
      JSON.stringify({
        mcpServers: opts.mcpServers ?? {
          everything: { command: process.execPath, args: [EVERYTHING, 'stdio'] },
        },
      }),
    )
    args.push('--mcp-config', file)
  }
  const env: Record<string, string | undefined> = {
    PATH: process.env['PATH'],
    HOME: dataDir,
    CAIRN_BASE_URL: model.baseURL,
    CAIRN_MODEL: 'm',
    CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
  }
  if (opts.browser) env['BROWSER'] = opts.browser
  for (const [k, v] of Object.entries(opts.env ?? {})) env[k] = v === '' ? undefined : v
  const child: ChildProcess = spawn(process.execPath, args, {
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  let stopping = false
  child.stderr!.on('data', (d: Buffer) => (stderr += d.toString()))
  child.once('exit', (code, signal) => {
    // a host that dies in the middle of a test says why
    if (!stopping) console.error(`browser mode exited (${code ?? signal}):\n${stderr}`)
  })
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser mode did not start: ${stderr}`)),
      20_000,
    )
    let out = ''
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /Cairn is running at (\S+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once('exit', (code) => reject(new Error(`browser mode exited with ${code}: ${stderr}`)))
  })
  const base = new URL(url).origin
  const host: WebHost = {
    url,
    base,
    model,
    dataDir,
    stop: async (keepData = false) => {
      stopping = true
      if (child.exitCode === null) {
        const exited = new Promise((r) => child.once('exit', r))
        child.kill('SIGTERM')
        await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
        if (child.exitCode === null) child.kill('SIGKILL')
      }
      if (!keepData) {
        if (!opts.model) await model.close()
        rmSync(dataDir, { recursive: true, force: true })
      }
    },
    restart: async () => {
      await host.stop(true)
      return startWebHost({ ...opts, model, dataDir, port: Number(new URL(url).port) })
    },
  }
  return host
}
