/**
 * The languages code blocks are highlighted in: a fixed list, so that a fence's name maps to
 * one grammar (never guessed from the code). Shared by the main thread (to decide whether to
 * ask the worker at all) and by `highlight-core.ts` (which loads the grammars); it imports
 * nothing, so it costs the main bundle almost nothing.
 */

export const LANGUAGES = [
  'typescript',
  'javascript',
  'tsx',
  'jsx',
  'json',
  'python',
  'shellscript',
  'yaml',
  'toml',
  'html',
  'css',
  'scss',
  'sql',
  'rust',
  'go',
  'java',
  'kotlin',
  'swift',
  'c',
  'cpp',
  'csharp',
  'ruby',
  'php',
  'diff',
  'markdown',
  'xml',
  'dockerfile',
  'powershell',
  'lua',
  'ini',
] as const

export type LanguageId = (typeof LANGUAGES)[number]

/** Names a fence may use for a language, besides the language's own id. */
const ALIASES: Record<string, LanguageId> = {
  ts: 'typescript',
  mts: 'typescript',
  cts: 'typescript',
  js: 'javascript',
  mjs: 'javascript',
  cjs: 'javascript',
  py: 'python',
  python3: 'python',
  bash: 'shellscript',
  sh: 'shellscript',
  shell: 'shellscript',
  zsh: 'shellscript',
  yml: 'yaml',
  htm: 'html',
  rs: 'rust',
  golang: 'go',
  kt: 'kotlin',
  kts: 'kotlin',
  h: 'c',
  'c++': 'cpp',
  cc: 'cpp',
  cxx: 'cpp',
  hpp: 'cpp',
  cs: 'csharp',
  'c#': 'csharp',
  rb: 'ruby',
  patch: 'diff',
  md: 'markdown',
  svg: 'xml',
  docker: 'dockerfile',
  ps1: 'powershell',
  ps: 'powershell',
  pwsh: 'powershell',
}

const IDS: ReadonlySet<string> = new Set(LANGUAGES)

/**
 * The language a fence's info string names (its first word, any case), or null when the fence
 * names none or one we do not highlight.
 */
export function resolveLanguage(info: string | null | undefined): LanguageId | null {
  if (!info) return null
  const name = info.trim().split(/\s+/, 1)[0]?.toLowerCase() ?? ''
  if (name === '') return null
  if (IDS.has(name)) return name as LanguageId
  return Object.hasOwn(ALIASES, name) ? (ALIASES[name] ?? null) : null
}

/** Blocks larger than this are shown plain: highlighting them would cost more than it helps. */
export const MAX_HIGHLIGHT_CHARS = 100_000
export const MAX_HIGHLIGHT_LINES = 3_000

export function withinHighlightLimits(code: string): boolean {
  if (code.length > MAX_HIGHLIGHT_CHARS) return false
  let lines = 1
  for (let i = code.indexOf('\n'); i !== -1; i = code.indexOf('\n', i + 1)) {
    if (++lines > MAX_HIGHLIGHT_LINES) return false
  }
  return true
}
