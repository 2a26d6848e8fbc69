// @ts-check
/**
 * Every text a user reads in the window goes through the translation layer
 * (src-renderer/src/i18n): JSX text and the attributes that are read (aria-label, title,
 * placeholder, alt, and the kit's label/hint/legend props) may not be literal strings.
 * What is not text (class names, roles, ids, keys, punctuation) is left alone.
 */
import i18next from 'eslint-plugin-i18next'
import { UNTRANSLATED } from './untranslated.js'

/** attributes and props whose value a user reads or hears */
const READ_ATTRIBUTES = [
  'aria-label',
  'aria-description',
  'aria-placeholder',
  'aria-roledescription',
  'aria-valuetext',
  'title',
  'placeholder',
  'alt',
  'label',
  'hint',
  'legend',
  'heading',
  'description',
  'message',
  'pickTitle',
  'savedText',
  'confirmLabel',
  'emptyText',
]

export const i18nRules = [
  {
    files: ['src-renderer/src/**/*.tsx'],
    ignores: UNTRANSLATED,
    plugins: { i18next },
    rules: {
      'i18next/no-literal-string': [
        'error',
        {
          mode: 'jsx-only',
          'jsx-attributes': { include: READ_ATTRIBUTES },
          words: {
            // not text: punctuation, symbols, numbers, a lone capital letter, a key's name
            exclude: [
              /^[\p{P}\p{S}\p{N}\s]+$/u,
              '[A-Z]',
              'Esc|Enter|Tab|Ctrl|Cmd|Shift|Alt',
              // the product's name
              'Cairn',
            ],
          },
          message:
            "A text the user reads goes through the translation layer: t('…') from useT() (src-renderer/src/i18n), with the key in every locale",
        },
      ],
    },
  },
]
