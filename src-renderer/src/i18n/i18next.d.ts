/** Keys are checked against the English texts: a key that does not exist fails the typecheck. */
import 'i18next'
import type en from './locales/en.json'

declare module 'i18next' {
  interface CustomTypeOptions {
    resources: { translation: typeof en }
    returnNull: false
  }
}
