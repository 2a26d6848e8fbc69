/**
 * The translation lint rule (eslint/i18n.js) through ESLint with the project's
 * configuration: text a user reads, as JSX text or in a read attribute, is reported; what is
 * not text is not; a file on the untranslated list is skipped, and the list only holds files
 * that exist.
 */
import { existsSync } from 'node:fs'
import { ESLint } from 'eslint'
import { describe, expect, it } from 'vitest'
import { UNTRANSLATED } from '../../eslint/untranslated.js'

const eslint = new ESLint({ cwd: process.cwd() })
const FILE = 'src-renderer/src/features/chat/NewThing.tsx'

async function literals(code: string, filePath = FILE): Promise<number> {
  const [result] = await eslint.lintText(code, { filePath })
  return (result?.messages ?? []).filter((m) => m.ruleId === 'i18next/no-literal-string').length
}

const component = (jsx: string): string =>
  `import type { JSX } from 'react'\nexport function X(): JSX.Element {\n  return ${jsx}\n}\n`

describe('the translation lint rule', { timeout: 120_000 }, () => {
  it('reports text in JSX and in the attributes users read', async () => {
    expect(await literals(component('<p>Hello there</p>'))).toBe(1)
    expect(await literals(component('<button aria-label="Close dialog">×</button>'))).toBe(1)
    expect(await literals(component('<input placeholder="Search chats" />'))).toBe(1)
    expect(await literals(component('<img alt="A cairn" src="a.png" />'))).toBe(1)
    expect(await literals(component('<span title="Copied">ok</span>'))).toBe(2)
    expect(await literals(component("<p>{ready ? 'Ready' : 'Waiting'}</p>"))).toBe(2)
  })

  it('leaves what is not text alone', async () => {
    expect(
      await literals(
        component(
          '<div className="row wide" role="group" id="x" data-kind="a" aria-live="polite">{count} · {total}</div>',
        ),
      ),
    ).toBe(0)
    expect(await literals(component('<kbd>Esc</kbd>'))).toBe(0)
    expect(await literals(component("<p>{t('chat.title')}</p>"))).toBe(0)
  })

  it('skips the files not translated yet, which all exist', async () => {
    for (const f of UNTRANSLATED) expect(existsSync(f), f).toBe(true)
    if (UNTRANSLATED[0])
      expect(await literals(component('<p>Hello there</p>'), UNTRANSLATED[0])).toBe(0)
  })
})
