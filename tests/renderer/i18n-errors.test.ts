/**
 * Every error code has a text in every shipped language, and the window's text of a failure
 * is decided from its code and details: the host's words in English, the code's text with
 * the details put in elsewhere.
 */
import { describe, expect, it } from 'vitest'
import { errorCodeSchema, type ErrorInfo } from '../../src-preload/contract/errors'
import { errorText } from '../../src-renderer/src/ui/error-text'
import { i18n, LANGUAGES } from '../../src-renderer/src/i18n'
import { RequestError } from '../../src-renderer/src/platform/request'
import en from '../../src-renderer/src/i18n/locales/en.json'

const PROBLEMS = Object.keys(en.errors.attachment) // the problems, camelCased (too_many would read as a plural form)

async function tIn(lng: string) {
  const { setLanguageChoice } = await import('../../src-renderer/src/i18n')
  await setLanguageChoice(lng as never)
  return i18n.getFixedT(lng)
}

describe('error texts', () => {
  for (const lng of LANGUAGES) {
    it(`${lng} has a text for every code and every attachment problem`, async () => {
      await tIn(lng)
      const missing = [
        ...errorCodeSchema.options.map((c) => `errors.${c}`),
        'errors.bad_requestFields',
        'errors.conflictFields',
        'errors.internalNoId',
        ...PROBLEMS.map((p) => `errors.attachment.${p}`),
      ].filter((k) => !i18n.exists(k, { lng, fallbackLng: false }))
      expect(missing).toEqual([])
    })
  }

  it('English shows the host’s message, another language the code’s text with its details', async () => {
    const info: ErrorInfo = {
      code: 'database_damaged',
      message: 'The database at /data/cairn.db is damaged: restore a backup.',
      details: { path: '/data/cairn.db' },
    }
    expect(errorText(await tIn('en'), 'en', new RequestError(info))).toBe(info.message)
    const ja = errorText(await tIn('ja'), 'ja', new RequestError(info))
    expect(ja).toContain('/data/cairn.db')
    expect(ja).toContain('データベース')
    expect(ja).not.toContain('restore')
  })

  it('puts in the fields of a refused input, the file and problem of a refused attachment, a provider’s status', async () => {
    const de = await tIn('de')
    expect(
      errorText(de, 'de', {
        code: 'bad_request',
        message: 'x',
        details: { fields: { 'assistant.name': 'required' } },
      } satisfies ErrorInfo as never),
    ).toBe(i18n.t('errors.bad_requestFields', { lng: 'de', fields: 'assistant.name' }))
    const refused = new RequestError({
      code: 'attachment_refused',
      message: 'x',
      details: { file: 'plan.zip', problem: 'archive' },
    })
    expect(errorText(de, 'de', refused)).toBe('plan.zip ist ein Archiv: Entpacken Sie es und hängen Sie die Dateien darin an.')
    const fr = await tIn('fr')
    const server = new RequestError({
      code: 'server',
      message: 'x',
      details: { status: 503, retryable: true },
    })
    expect(errorText(fr, 'fr', server)).toContain('503')
    // a thrown value that is not a request's failure is an internal one
    expect(errorText(fr, 'fr', new Error('boom'))).toContain('Cairn')
  })
})
