import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'

const eslint = new ESLint({ cwd: process.cwd() })

async function rulesHit(filePath: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).map((m) => `${m.ruleId}: ${m.message}`)
}

describe('the layering lint rules', () => {
  it('keep electron out of the core', async () => {
    const hits = await rulesHit(
      'src-main/core/agent/x.ts',
      "import { app } from 'electron'\nexport const a = app\n",
    )
    expect(hits.join('\n')).toMatch(
      /no-restricted-imports: .*src-main\/core must not import electron/,
    )
    const sub = await rulesHit(
      'src-main/core/x.ts',
      "import { ipcMain } from 'electron/main'\nexport const a = ipcMain\n",
    )
    expect(sub.join('\n')).toMatch(/must not import electron/)
  })

  it('keep adapters and hosts out of the core', async () => {
    const hits = await rulesHit(
      'src-main/core/x.ts',
      "import { openSettings } from '../adapters/settings/settings-store'\nexport const a = openSettings\n",
    )
    expect(hits.join('\n')).toMatch(/depends on ports/)
  })

  it('let the contract import zod and nothing else', async () => {
    expect(
      await rulesHit(
        'src-preload/contract/x.ts',
        "import { z } from 'zod'\nexport const s = z.string()\n",
      ),
    ).toEqual([])
    const hits = await rulesHit(
      'src-preload/contract/x.ts',
      "import { readFileSync } from 'node:fs'\nexport const r = readFileSync\n",
    )
    expect(hits.join('\n')).toMatch(/imports nothing but zod/)
  })

  it('let the renderer import the contract as types only', async () => {
    expect(
      await rulesHit(
        'src-renderer/src/x.ts',
        "import type { AgentEvent } from '../../src-preload/contract/events'\nexport type E = AgentEvent\n",
      ),
    ).toEqual([])
    const hits = await rulesHit(
      'src-renderer/src/x.ts',
      "import { routes } from '../../src-preload/contract/routes'\nexport const r = routes\n",
    )
    expect(hits.join('\n')).toMatch(/import type` only/)
  })

  it('forbid an explicit any', async () => {
    const hits = await rulesHit('src-main/services/x.ts', 'export const a: any = 1\n')
    expect(hits.join('\n')).toMatch(/no-explicit-any/)
  })
})
