// @ts-check
import js from '@eslint/js'
import tseslint from 'typescript-eslint'
import globals from 'globals'

export default tseslint.config(
  {
    ignores: ['out/**', 'dist/**', 'node_modules/**', 'coverage/**', '.electron-native/**', '.scratch/**'],
  },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-explicit-any': 'error',
      '@typescript-eslint/consistent-type-imports': [
        'error',
        { prefer: 'type-imports', fixStyle: 'separate-type-imports' },
      ],
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' },
      ],
      'no-constant-condition': ['error', { checkLoops: false }],
    },
  },
  {
    // The core is plain TypeScript on Node: everything from the outside world comes in
    // through small interfaces, so that it runs (and is tested) without Electron.
    files: ['src-main/core/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'src-main/core must not import electron.' }],
          patterns: [
            { group: ['electron/*'], message: 'src-main/core must not import electron.' },
            {
              group: ['**/adapters/**', '**/services/**', '**/cli/**'],
              message: 'The core depends on ports, not on adapters or hosts.',
            },
          ],
        },
      ],
    },
  },
  {
    // The contract is the one definition of what crosses the process boundary: zod only.
    files: ['src-preload/contract/**/*.ts'],
    rules: {
      'no-restricted-imports': [
        'error',
        {
          patterns: [
            {
              regex: '^(?!zod$)(?!\\./)(?!\\.\\./contract/).*',
              message: 'The contract imports nothing but zod.',
            },
          ],
        },
      ],
    },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    languageOptions: { globals: { ...globals.browser } },
    rules: {
      'no-restricted-imports': [
        'error',
        {
          paths: [{ name: 'electron', message: 'The renderer never imports electron.' }],
          patterns: [
            {
              group: ['**/src-preload/contract/**', '**/contract/**'],
              allowTypeImports: true,
              message: 'The renderer imports the contract with `import type` only.',
            },
          ],
        },
      ],
    },
  },
)
