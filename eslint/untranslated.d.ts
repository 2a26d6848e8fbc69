/** The window's files not translated yet (eslint/untranslated.js). */
export const UNTRANSLATED: string[]
