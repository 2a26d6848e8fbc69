/**
 * The rules that close the layering's holes (eslint/layers.js), run through ESLint with the
 * project's configuration: a file in no layer, Node's globals in the core, import cycles,
 * long functions. Each is shown reporting a violation and accepting the allowed case, and
 * each message is shown linking to a section of docs/architecture.md that exists.
 */
import { readFileSync } from 'node:fs'
import { ESLint, type Linter } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function messages(
  filePath: string,
  code: string,
  rules: string[],
): Promise<Linter.LintMessage[]> {
  const [result] = await eslint.lintText(code, { filePath })
  const fatal = result?.messages.filter((m) => m.fatal) ?? []
  expect(fatal).toEqual([])
  return (result?.messages ?? []).filter((m) => m.ruleId !== null && rules.includes(m.ruleId))
}
const texts = async (filePath: string, code: string, rules: string[]) =>
  (await messages(filePath, code, rules)).map((m) => m.message)

describe('a file in no layer', () => {
  const inALayer = (file: string) => texts(file, 'export const a = 1\n', ['layers/in-a-layer'])

  it.each([
    'src-main/x.ts',
    'src-main/cli/x.js',
    'src-preload/other/x.ts',
    'src-renderer/src/x.ts',
    'src-renderer/src/bridge/x.ts',
    'src-renderer/x.ts',
  ])('reports %s', async (file) => {
    expect(await inALayer(file)).toEqual([
      expect.stringMatching(
        new RegExp(`^${file.replace(/[./]/g, '\\$&')} belongs to no layer.*eslint/layers\\.js`),
      ),
    ])
  })

  it.each([
    'src-main/index.ts',
    'src-main/core/agent/x.ts',
    'src-main/core/web-globals.d.ts',
    'src-preload/index.ts',
    'src-preload/contract/x.ts',
    'src-renderer/src/App.tsx',
    'src-renderer/src/main.tsx',
    'src-renderer/src/screens/chat/X.tsx',
    'src-renderer/src/features/chat/rows/X.tsx',
    'src-renderer/src/ui/forms/x.ts',
    'src-renderer/src/state/x.ts',
    'src-renderer/src/platform/x.ts',
  ])('accepts %s', async (file) => {
    expect(await inALayer(file)).toEqual([])
  })

  it('leaves files outside src-* alone', async () => {
    expect(await inALayer('scripts/x.ts')).toEqual([])
    expect(await inALayer('tests/lint/x.ts')).toEqual([])
  })
})

describe('Node globals in the core', () => {
  const GLOBALS = ['no-restricted-globals', 'no-restricted-properties']

  it.each([
    ['Buffer', "export const b = Buffer.from('x')\n", /Uint8Array, TextEncoder and TextDecoder/],
    ['process', 'export const e = process.env.HOME\n', /comes in through a port/],
    ['fetch', "export const r = fetch('http://127.0.0.1/')\n", /Fetch port/],
    ['globalThis.fetch', "export const r = globalThis.fetch('http://127.0.0.1/')\n", /Fetch port/],
    ['require', "export const m = require('x')\n", /import what the core may use/],
    ['__dirname', 'export const d = __dirname\n', /knows no files/],
    ['setImmediate', 'setImmediate(() => {})\n', /setTimeout or a promise/],
  ])('reports %s', async (_name, code, why) => {
    const hits = await texts('src-main/core/llm/x.ts', code, GLOBALS)
    expect(hits).toEqual([expect.stringMatching(why)])
    expect(hits[0]).toMatch(/web-standard globals only/)
  })

  it('accepts the web-standard globals and the ports', async () => {
    const code = [
      "import type { Fetch } from '../ports'",
      'export async function get(fetch: Fetch, signal: AbortSignal): Promise<string> {',
      '  const url = new URL("http://127.0.0.1/v1")',
      '  const res = await fetch(url.href, { signal: AbortSignal.any([signal, AbortSignal.timeout(1)]) })',
      '  const t = setTimeout(() => {}, 10)',
      '  clearTimeout(t)',
      '  return new TextDecoder().decode(new TextEncoder().encode(await res.text())) + performance.now()',
      '}',
      '',
    ].join('\n')
    expect(await texts('src-main/core/llm/x.ts', code, GLOBALS)).toEqual([])
  })

  it('lets the rest of src-main use Node', async () => {
    const code = "export const b = Buffer.from(process.env.HOME ?? '')\n"
    expect(await texts('src-main/services/x.ts', code, GLOBALS)).toEqual([])
    expect(await texts('src-main/adapters/x.ts', code, GLOBALS)).toEqual([])
  })
})

describe('import cycles', () => {
  const cycles = (file: string, code: string) => texts(file, code, ['layers/no-cycle'])

  it('reports an import that leads back, with the whole loop', async () => {
    // live-store imports queries: queries importing the live store closes a loop
    const hits = await cycles(
      'src-renderer/src/state/queries.ts',
      "import { createLiveStore } from './live-store'\nexport const c = createLiveStore\n",
    )
    expect(hits).toEqual([
      'Import cycle: src-renderer/src/state/queries.ts → src-renderer/src/state/live-store.ts → src-renderer/src/state/queries.ts. Move what both sides need into one of them, or into a third file both import. See docs/architecture.md#import-cycles',
    ])
  })

  it('finds a longer loop', async () => {
    // assistants → settings-schema → voice
    const hits = await cycles(
      'src-preload/contract/voice.ts',
      "import { assistantDraftSchema } from './assistants'\nexport const a = assistantDraftSchema\n",
    )
    expect(hits).toEqual([
      expect.stringContaining(
        'src-preload/contract/voice.ts → src-preload/contract/assistants.ts → src-preload/contract/settings-schema.ts → src-preload/contract/voice.ts.',
      ),
    ])
  })

  it('counts type imports, re-exports and a file importing itself', async () => {
    const toolDef = 'src-main/adapters/builtin-tools/tool-def.ts'
    expect(
      await cycles(toolDef, "import type { X } from './net-guard'\nexport type Y = X\n"),
    ).toEqual([
      expect.stringContaining(
        `${toolDef} → src-main/adapters/builtin-tools/net-guard.ts → ${toolDef}`,
      ),
    ])
    expect(await cycles(toolDef, "export * from './net-guard'\n")).toHaveLength(1)
    expect(
      await cycles('src-main/core/ports.ts', "export type { Fetch as F } from './ports'\n"),
    ).toEqual([expect.stringContaining('src-main/core/ports.ts → src-main/core/ports.ts.')])
  })

  it('accepts imports that go one way', async () => {
    expect(
      await cycles(
        'src-main/adapters/builtin-tools/net-guard.ts',
        "import { ToolError } from './tool-def'\nexport const e = ToolError\n",
      ),
    ).toEqual([])
    expect(
      await cycles(
        'src-renderer/src/state/queries.ts',
        "import { usePlatform } from './context'\nexport const p = usePlatform\n",
      ),
    ).toEqual([])
    expect(
      await cycles('src-main/core/x.ts', "import { z } from 'zod'\nexport const s = z\n"),
    ).toEqual([])
  })
})

describe('function length', () => {
  /** a function `lines` lines long, first and last line included */
  const fn = (lines: number) =>
    [
      'export function f(): number {',
      '  let n = 0',
      ...Array(lines - 4).fill('  n++'),
      '  return n',
      '}',
      '',
    ].join('\n')
  const component = (lines: number) =>
    [
      'export function View(): number {',
      ...Array(lines - 3).fill('  void 0'),
      '  return 1',
      '}',
      '',
    ].join('\n')
  const long = (file: string, code: string) => messages(file, code, ['layers/function-length'])

  it('reports past 100 lines in src-main, with the link', async () => {
    expect(await long('src-main/services/x.ts', fn(100))).toEqual([])
    const hits = await long('src-main/services/x.ts', fn(101))
    expect(hits.map((m) => [m.severity, m.message])).toEqual([
      [
        2,
        "Function 'f' has too many lines (101); at most 100 here. Split it into named steps. See docs/architecture.md#function-length",
      ],
    ])
    expect(await long('src-main/core/agent/x.ts', fn(101))).toHaveLength(1)
  })

  it('reports past 150 lines in the renderer', async () => {
    expect(component(150).split('\n')).toHaveLength(151)
    expect(await long('src-renderer/src/features/chat/View.tsx', component(150))).toEqual([])
    expect(await long('src-renderer/src/features/chat/View.tsx', component(151))).toEqual([
      expect.objectContaining({
        severity: 2,
        message: expect.stringContaining('(151); at most 150'),
      }),
    ])
    expect(await long('src-renderer/src/state/x.ts', fn(151))).toHaveLength(1)
  })

  it('is an error, so that npm run lint fails on a function over its limit', async () => {
    const pkg = JSON.parse(readFileSync('package.json', 'utf8')) as {
      scripts: Record<string, string>
    }
    expect(pkg.scripts['lint']).toBe('eslint .')
    const [result] = await eslint.lintText(fn(200), { filePath: 'src-main/services/x.ts' })
    expect(result?.errorCount).toBe(1)
    expect(result?.warningCount).toBe(0)
  })
})

describe('every message of the layer rules links to its section of docs/architecture.md', () => {
  /** GitHub's anchor for a heading */
  const slug = (heading: string) =>
    heading
      .trim()
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s-]/gu, '')
      .replace(/\s/g, '-')
  const anchors = new Set(
    readFileSync('docs/architecture.md', 'utf8')
      .split('\n')
      .filter((l) => /^#{1,6} /.test(l))
      .map((l) => slug(l.replace(/^#+ /, ''))),
  )

  it.each([
    ['src-main/core/x.ts', "import 'electron'\n", 'layers'],
    [
      'src-renderer/src/features/chat/x.ts',
      "import '../composer/Composer'\n",
      'renderer-features-and-screens',
    ],
    ['src-main/x.ts', 'export const a = 1\n', 'layers'],
    ['src-main/core/x.ts', "export const b = Buffer.from('x')\n", 'the-cores-globals'],
    ['src-renderer/src/state/queries.ts', "import './live-store'\n", 'import-cycles'],
    ['src-main/services/x.ts', fnOf(101), 'function-length'],
  ])('%s: %s', async (file, code, anchor) => {
    const [result] = await eslint.lintText(code, { filePath: file })
    const ours = (result?.messages ?? []).filter(
      (m) => m.ruleId?.startsWith('layers/') || m.ruleId?.startsWith('no-restricted-'),
    )
    expect(ours.length).toBeGreaterThan(0)
    for (const m of ours)
      expect(m.message).toMatch(new RegExp(`See docs/architecture\\.md#${anchor}$`))
    expect(anchors).toContain(anchor)
  })
})

function fnOf(lines: number): string {
  return ['export function f(): void {', ...Array(lines - 2).fill('  void 0'), '}', ''].join('\n')
}
