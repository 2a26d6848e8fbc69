/**
 * The core's typecheck (tsconfig.core.json: no Node types, the web-standard globals of
 * src-main/core/web-globals.d.ts): a file of the core that uses a Node global does not
 * compile, one that uses what the core may use does. Compiled with the TypeScript API, the
 * configuration read as `npm run typecheck` reads it.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import ts from 'typescript'
import { afterAll, describe, expect, it } from 'vitest'

const dir = mkdtempSync(join(tmpdir(), 'cairn-core-types-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const config = ts.getParsedCommandLineOfConfigFile(
  resolve('tsconfig.core.json'),
  {},
  {
    ...ts.sys,
    onUnRecoverableConfigFileDiagnostic: (d) => {
      throw new Error(ts.flattenDiagnosticMessageText(d.messageText, '\n'))
    },
  },
)!

/** The errors of `code` compiled as a file of the core. */
function coreErrors(name: string, code: string): string[] {
  const file = join(dir, `${name}.ts`)
  writeFileSync(file, code)
  const program = ts.createProgram({
    rootNames: [file, resolve('src-main/core/web-globals.d.ts')],
    options: config.options,
  })
  return ts
    .getPreEmitDiagnostics(program)
    .map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
}

describe('the core’s typecheck', () => {
  it('reads the configuration with no Node types', () => {
    expect(config.errors).toEqual([])
    expect(config.options.types).toEqual([])
    expect(config.fileNames).toContain(resolve('src-main/core/web-globals.d.ts'))
  })

  it.each([
    ['Buffer', "export const b = Buffer.from('x')\n", /Cannot find name 'Buffer'/],
    ['process', 'export const e = process.env\n', /Cannot find name 'process'/],
    ['fetch', "export const r = fetch('http://127.0.0.1/')\n", /Cannot find name 'fetch'/],
    ['require', "export const m = require('x')\n", /Cannot find name 'require'/],
    ['__dirname', 'export const d = __dirname\n', /Cannot find name '__dirname'/],
    ['globalThis.process', 'export const p = globalThis.process\n', /typeof globalThis/],
    [
      'node:fs',
      "import { readFileSync } from 'node:fs'\nexport const r = readFileSync\n",
      /node:fs/,
    ],
    ['a timer’s Node side', 'export const t = setTimeout(() => {}, 1).ref()\n', /ref/],
  ])('refuses %s', (name, code, error) => {
    const errors = coreErrors(name.replace(/\W/g, '-'), code)
    expect(errors.some((e) => error.test(e))).toBe(true)
  })

  it('compiles what the core may use', () => {
    const code = [
      "import { createHash, randomUUID } from 'node:crypto'",
      'export type Fetch = (input: string | URL | Request, init?: RequestInit) => Promise<Response>',
      'export async function get(fetch: Fetch, outer: AbortSignal): Promise<string> {',
      '  const controller = new AbortController()',
      '  const signal = AbortSignal.any([outer, controller.signal, AbortSignal.timeout(1000)])',
      '  const timer = setTimeout(() => controller.abort(), 10)',
      '  timer.unref?.()',
      "  const res = await fetch(new URL('/v1', 'http://127.0.0.1').href, { method: 'GET', signal })",
      '  clearTimeout(timer)',
      '  const tap = new TransformStream<Uint8Array, Uint8Array>({',
      '    transform: (chunk, c) => c.enqueue(chunk),',
      '  })',
      '  const body = res.body ? new Response(res.body.pipeThrough(tap), { status: res.status }) : res',
      '  const bytes = new TextEncoder().encode(await body.text())',
      "  return new TextDecoder().decode(bytes) + randomUUID() + createHash('sha256').update(bytes).digest('hex') + performance.now()",
      '}',
      '',
    ].join('\n')
    expect(coreErrors('allowed', code)).toEqual([])
  })
})
