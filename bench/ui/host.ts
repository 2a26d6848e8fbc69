/**
 * Starts browser mode (`node <out>/web/index.js`) on a seeded data directory against the
 * benchmark's model server, as a user would, and waits for `Cairn is running at <url>`.
 */
import { spawn } from 'node:child_process'
import { join } from 'node:path'

export interface BrowserModeHost {
  /** the printed address, with the token */
  url: string
  /** the address without the token */
  origin: string
  stop(): Promise<void>
}

export async function startBrowserMode(opts: {
  outDir: string
  dataDir: string
  home: string
  baseURL: string
}): Promise<BrowserModeHost> {
  const args = [
    join(opts.outDir, 'web', 'index.js'),
    '--port',
    '0',
    '--data-dir',
    opts.dataDir,
    '--no-open',
  ]
  const child = spawn(process.execPath, args, {
    env: {
      PATH: process.env['PATH'],
      HOME: opts.home,
      CAIRN_BASE_URL: opts.baseURL,
      CAIRN_MODEL: 'bench',
      CAIRN_LOCAL_SERVERS: 'http://127.0.0.1:9/v1',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stderr = ''
  child.stderr.on('data', (d: Buffer) => (stderr += d.toString()))
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`browser mode did not start: ${stderr}`)),
      30_000,
    )
    let out = ''
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString()
      const m = /Cairn is running at (\S+)/.exec(out)
      if (m?.[1]) {
        clearTimeout(timer)
        resolve(m[1])
      }
    })
    child.once('exit', (code) => {
      clearTimeout(timer)
      reject(new Error(`browser mode exited with ${code}: ${stderr}`))
    })
  })
  return {
    url,
    origin: new URL(url).origin,
    async stop() {
      if (child.exitCode !== null) return
      const exited = new Promise((r) => child.once('exit', r))
      child.kill('SIGTERM')
      await Promise.race([exited, new Promise((r) => setTimeout(r, 10_000))])
      if (child.exitCode === null) child.kill('SIGKILL')
    },
  }
}
