/**
 * The layering lint rule (eslint/import-layers.js, layers in eslint/layers.js), run through
 * ESLint with the project's configuration on small snippets: each forbidden import is
 * reported, each allowed one is not.
 */
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { ownFolder } from '../../eslint/import-layers.js'
import { importTarget } from '../../eslint/imports.js'

const eslint = new ESLint({ cwd: process.cwd() })

/** The layering messages ESLint reports for `code` as the file `filePath`. */
async function layering(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? [])
    .filter((m) => m.ruleId === 'layers/allowed-imports' || m.fatal)
    .map((m) => m.message)
}

/** `import * as m from '<source>'` with a use, so that no other rule complains */
const valueImport = (source: string) => `import * as m from '${source}'\nexport const a = m\n`
const typeImport = (source: string) => `import type { T } from '${source}'\nexport type A = T\n`

type Case = [file: string, source: string]

const allowed: Case[] = [
  ['src-preload/contract/x.ts', 'zod'],
  ['src-preload/contract/x.ts', './dto'],
  ['src-preload/index.ts', 'electron'],
  ['src-preload/index.ts', './contract/bridge'],
  ['src-main/core/agent/x.ts', '../ports'],
  ['src-main/core/agent/x.ts', '../llm/client'],
  ['src-main/core/llm/x.ts', 'node:crypto'],
  ['src-main/core/llm/x.ts', 'crypto'],
  ['src-main/core/llm/x.ts', 'openai'],
  ['src-main/core/llm/x.ts', 'openai/streaming'],
  ['src-main/core/x.ts', 're2-wasm'],
  ['src-main/adapters/sqlite/x.ts', 'better-sqlite3'],
  ['src-main/adapters/settings/x.ts', 'zod'],
  ['src-main/services/x.ts', 'zod'],
  ['src-main/adapters/sqlite/x.ts', 'node:fs'],
  ['src-main/adapters/logs/x.ts', 'node:fs/promises'],
  ['src-main/adapters/mcp/x.ts', '@modelcontextprotocol/client'],
  ['src-main/adapters/mcp/x.ts', '@modelcontextprotocol/client/stdio'],
  ['src-main/adapters/mcp/x.ts', '../../core/ports'],
  ['src-main/adapters/mcp/x.ts', '../../../src-preload/contract/dto'],
  // the composition files make the adapters the services use through ports
  ['src-main/services/host/app-services.ts', '../../adapters/sqlite/session-store'],
  ['src-main/services/host/app-host.ts', '../../adapters/mcp/oauth-login'],
  ['src-main/services/tools/tool-runtime.ts', '../../adapters/mcp/manager'],
  ['src-main/services/handlers/x.ts', '../../core/service-ports'],
  ['src-main/services/x.ts', '../core/agent/turn-runner'],
  ['src-main/services/x.ts', '../ipc/router'],
  ['src-main/ipc/router.ts', '../../src-preload/contract/routes'],
  ['src-main/electron/x.ts', 'electron'],
  ['src-main/electron/x.ts', 'electron-store'],
  ['src-main/electron/x.ts', '../services/host/app-host'],
  ['src-main/electron/x.ts', '../adapters/data-dir'],
  ['src-main/index.ts', './electron/main'],
  ['src-main/web/x.ts', 'ws'],
  ['src-main/web/x.ts', '../services/host/app-host'],
  ['src-main/web/x.ts', 'node:http'],
  ['src-main/cli/x.ts', '../services/host/app-services'],
  ['src-main/cli/x.ts', '../adapters/logs/turn-log'],
  ['src-renderer/src/features/chat/x.ts', 'react'],
  ['src-renderer/src/features/chat/x.ts', '@radix-ui/react-dialog'],
  ['src-renderer/src/ui/markdown/x.ts', '@shikijs/langs/typescript'],
  ['src-renderer/src/ui/markdown/x.ts', './worker?worker'],
  // a feature: ui/, state/, platform/ and itself
  ['src-renderer/src/features/chat/x.ts', '../../state/context'],
  ['src-renderer/src/features/chat/x.ts', '../../ui/forms/Field'],
  ['src-renderer/src/features/chat/x.ts', '../../platform/types'],
  ['src-renderer/src/features/chat/rows/x.ts', '../inspector/curl'],
  ['src-renderer/src/features/chat/x.ts', './rows/actions'],
  // a screen puts features together
  ['src-renderer/src/screens/chat/x.ts', '../../features/composer/Composer'],
  ['src-renderer/src/screens/chat/x.ts', '../../features/voice/use-voice'],
  ['src-renderer/src/App.tsx', './screens/chat/ChatScreen'],
  ['src-renderer/src/ui/x.ts', '../state/context'],
  ['src-renderer/src/state/x.ts', '../platform/types'],
]

const forbidden: Array<[...Case, RegExp]> = [
  [
    'src-preload/contract/x.ts',
    'node:fs',
    /src-preload\/contract may not import 'node:fs': .*zod only/,
  ],
  ['src-preload/contract/x.ts', '../../src-main/core/ports', /may not import/],
  ['src-preload/contract/x.ts', 'electron', /may not import 'electron'/],
  ['src-preload/index.ts', 'zod', /src-preload may not import 'zod'/],
  ['src-preload/index.ts', '../src-main/core/ports', /src-preload may not import/],
  ['src-main/core/x.ts', 'electron', /src-main\/core may not import 'electron': .*ports/],
  ['src-main/core/x.ts', 'electron/main', /may not import 'electron\/main'/],
  [
    'src-main/core/agent/x.ts',
    '../../electron/main',
    /may not import '\.\.\/\.\.\/electron\/main'/,
  ],
  ['src-main/core/x.ts', 'better-sqlite3', /may not import 'better-sqlite3'/],
  [
    'src-main/adapters/sqlite/x.ts',
    '@modelcontextprotocol/client',
    /src-main\/adapters may not import '@modelcontextprotocol\/client'/,
  ],
  ['src-main/services/x.ts', '@modelcontextprotocol/client', /may not import/],
  ['src-main/core/x.ts', 'node:fs', /may not import 'node:fs'/],
  ['src-main/core/x.ts', 'fs', /may not import 'fs'/],
  ['src-main/core/x.ts', 'node:child_process', /may not import 'node:child_process'/],
  ['src-main/core/x.ts', '../adapters/settings/settings-store', /may not import/],
  ['src-main/core/agent/x.ts', '../../services/turns/turn-service', /may not import/],
  ['src-main/core/agent/x.ts', '../../cli/output', /may not import/],
  ['src-main/adapters/x.ts', 'electron', /src-main\/adapters may not import 'electron'/],
  ['src-main/adapters/x.ts', '../services/host/app-host', /src-main\/adapters may not import/],
  ['src-main/adapters/x.ts', '../electron/paths', /src-main\/adapters may not import/],
  ['src-main/adapters/x.ts', 'ws', /src-main\/adapters may not import 'ws'/],
  // conf hooks SIGINT and SIGTERM when loaded: only the desktop shell (electron-store) has it
  ['src-main/adapters/settings/x.ts', 'conf', /src-main\/adapters may not import 'conf'/],
  ['src-main/services/x.ts', 'conf', /src-main\/services may not import 'conf'/],
  ['src-main/cli/x.ts', 'conf', /src-main\/cli may not import 'conf'/],
  ['src-main/web/x.ts', 'electron-store', /src-main\/web may not import 'electron-store'/],
  // ajv is for servers' tool schemas (the core); our own data is checked with zod
  ['src-main/adapters/settings/x.ts', 'ajv/dist/2020.js', /may not import 'ajv\/dist\/2020.js'/],
  ['src-main/services/x.ts', 'electron', /src-main\/services may not import 'electron'/],
  // services and ipc work through ports: only the composition files import adapters
  [
    'src-main/services/handlers/x.ts',
    '../../adapters/sqlite/session-store',
    /src-main\/services may not import '\.\.\/\.\.\/adapters\/sqlite\/session-store': services work through the ports .* See docs\/architecture\.md#services-on-ports/,
  ],
  [
    'src-main/services/turns/x.ts',
    '../../adapters/logs/turn-log',
    /services work through the ports/,
  ],
  ['src-main/services/x.ts', '../adapters/builtin-tools', /services work through the ports/],
  ['src-main/ipc/router.ts', '../adapters/sqlite/open-errors', /services work through the ports/],
  ['src-main/services/host/app-services.ts', 'electron', /composition\) may not import 'electron'/],
  ['src-main/services/x.ts', '../electron/window', /src-main\/services may not import/],
  ['src-main/services/x.ts', '../web/server', /src-main\/services may not import/],
  ['src-main/services/x.ts', '../cli/output', /src-main\/services may not import/],
  ['src-main/electron/x.ts', '../../src-renderer/src/App', /src-main\/electron may not import/],
  ['src-main/web/x.ts', 'electron', /src-main\/web may not import 'electron': .*without Electron/],
  ['src-main/web/x.ts', '../electron/paths', /src-main\/web may not import/],
  ['src-main/web/x.ts', '../cli/output', /src-main\/web may not import/],
  ['src-main/cli/x.ts', 'electron', /src-main\/cli may not import 'electron'/],
  ['src-main/cli/x.ts', '../electron/native-binding', /src-main\/cli may not import/],
  ['src-main/cli/x.ts', '../web/server', /src-main\/cli may not import/],
  ['src-renderer/src/state/x.ts', 'electron', /src-renderer\/src\/state may not import 'electron'/],
  ['src-renderer/src/App.tsx', 'node:fs', /src-renderer\/src\/screens may not import 'node:fs'/],
  ['src-renderer/src/features/chat/x.ts', 'zod', /features may not import 'zod'/],
  ['src-renderer/src/ui/x.ts', 'left-pad', /src-renderer\/src\/ui may not import 'left-pad'/],
  // a feature does not import another feature, nor a screen
  [
    'src-renderer/src/features/chat/x.ts',
    '../composer/Composer',
    /features may not import '\.\.\/composer\/Composer': a feature imports ui\/, state\/, platform\/ and itself/,
  ],
  ['src-renderer/src/features/chat/rows/x.ts', '../../voice/use-voice', /features may not import/],
  [
    'src-renderer/src/features/chat/x.ts',
    '../../screens/chat/ChatScreen',
    /features may not import/,
  ],
  // ui/, state/ and platform/ know no feature, and each only what is below it
  ['src-renderer/src/ui/x.ts', '../features/chat/EmptyState', /src\/ui may not import/],
  ['src-renderer/src/ui/forms/x.ts', '../../screens/settings/sections', /src\/ui may not import/],
  ['src-renderer/src/state/x.ts', '../ui/forms/Field', /src\/state may not import/],
  ['src-renderer/src/state/x.ts', '../features/chat/EmptyState', /src\/state may not import/],
  ['src-renderer/src/platform/x.ts', '../state/context', /src\/platform may not import/],
]

describe('the layering lint rule', () => {
  it.each(allowed)('lets %s import %s', async (file, source) => {
    expect(await layering(file, valueImport(source))).toEqual([])
  })

  it.each(forbidden)('reports %s importing %s', async (file, source, message) => {
    const hits = await layering(file, valueImport(source))
    expect(hits).toHaveLength(1)
    expect(hits[0]).toMatch(message)
  })

  it('reports every way to import: re-export, export *, import(), require, side effect', async () => {
    const file = 'src-main/core/x.ts'
    const code = [
      "export { app } from 'electron'",
      "export * from 'better-sqlite3'",
      "export const later = () => import('node:fs')",
      "export const old = require('node:child_process')",
      "import '../adapters/sqlite/migrations'",
      '',
    ].join('\n')
    const hits = await layering(file, code)
    expect(hits).toHaveLength(5)
    for (const source of [
      'electron',
      'better-sqlite3',
      'node:fs',
      'node:child_process',
      '../adapters/sqlite/migrations',
    ])
      expect(hits.some((h) => h.includes(`'${source}'`))).toBe(true)
  })

  it('lets the core and the renderer import the contract as types only', async () => {
    const contract = '../../../src-preload/contract/dto'
    expect(await layering('src-main/core/agent/x.ts', typeImport(contract))).toEqual([])
    expect(await layering('src-main/core/agent/x.ts', valueImport(contract))).toEqual([
      expect.stringMatching(/src-main\/core may import '.*contract\/dto' with `import type` only/),
    ])
    const fromRenderer = '../../src-preload/contract/routes'
    expect(await layering('src-renderer/src/App.tsx', typeImport(fromRenderer))).toEqual([])
    expect(
      await layering(
        'src-renderer/src/App.tsx',
        `import { type T } from '${fromRenderer}'\nexport type A = T\n`,
      ),
    ).toEqual([])
    expect(await layering('src-renderer/src/App.tsx', valueImport(fromRenderer))).toEqual([
      expect.stringMatching(/src-renderer\/src\/screens may import .* with `import type` only/),
    ])
  })

  it('lets the renderer import main as types only, never as values', async () => {
    const main = '../../../src-main/services/host/event-hub'
    expect(await layering('src-renderer/src/state/x.ts', typeImport(main))).toEqual([])
    expect(await layering('src-renderer/src/state/x.ts', valueImport(main))).toEqual([
      expect.stringMatching(/src\/state may import .*event-hub' with `import type` only/),
    ])
    expect(
      await layering(
        'src-renderer/src/App.tsx',
        "export const m = () => import('../../src-main/cli/index')\n",
      ),
    ).toEqual([expect.stringMatching(/with `import type` only/)])
  })

  it('keeps other layers’ types out of the core too', async () => {
    const hits = await layering(
      'src-main/core/x.ts',
      typeImport('../adapters/sqlite/session-store'),
    )
    expect(hits).toEqual([expect.stringMatching(/src-main\/core may not import/)])
  })

  it('keeps adapters’ types out of the services: a shape they need is a port’s', async () => {
    const hits = await layering(
      'src-main/services/handlers/x.ts',
      typeImport('../../adapters/mcp/config'),
    )
    expect(hits).toEqual([expect.stringMatching(/services work through the ports/)])
  })
})

describe('what an import names', () => {
  it('resolves relative imports from the importing file, without extension or query', () => {
    expect(importTarget('src-main/core/agent/x.ts', '../ports')).toEqual({
      kind: 'path',
      name: 'src-main/core/ports',
    })
    expect(importTarget('src-main/core/x.ts', '../../src-preload/contract/dto.ts')).toEqual({
      kind: 'path',
      name: 'src-preload/contract/dto',
    })
    expect(importTarget('src-renderer/src/a/x.ts', './w?worker').name).toBe('src-renderer/src/a/w')
  })

  it('names built-ins with node:, whichever way they are written', () => {
    expect(importTarget('src-main/core/x.ts', 'fs')).toEqual({ kind: 'module', name: 'node:fs' })
    expect(importTarget('src-main/core/x.ts', 'fs/promises').name).toBe('node:fs/promises')
    expect(importTarget('src-main/core/x.ts', 'openai/streaming').name).toBe('openai/streaming')
  })
})

describe('the folder a file belongs to', () => {
  it('is the one folder matching the glob that holds the file', () => {
    const features = 'src-renderer/src/features/*'
    expect(ownFolder(features, 'src-renderer/src/features/chat/rows/x.tsx')).toBe(
      'src-renderer/src/features/chat',
    )
    expect(ownFolder(features, 'src-renderer/src/features/x.ts')).toBeNull()
    expect(ownFolder(features, 'src-renderer/src/ui/x.ts')).toBeNull()
  })
})

describe('the rest of the lint configuration', () => {
  it('forbids an explicit any', async () => {
    const [result] = await eslint.lintText('export const a: any = 1\n', {
      filePath: 'src-main/services/x.ts',
    })
    expect(result?.messages.map((m) => m.ruleId)).toContain('@typescript-eslint/no-explicit-any')
  })
})
