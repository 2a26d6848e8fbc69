// @ts-check
/**
 * The layers of the code and what each may import (rule: eslint/import-layers.js).
 * Anything not listed is reported, so a new dependency of a layer is a decision made here;
 * a file under `src-*` that no layer takes in is reported too. Paths start with `/` (project
 * folders); other entries are packages and `node:` modules. Beside the layers: the core's
 * globals, import cycles and function length. Every message links to the section of
 * docs/architecture.md that explains its rule.
 */
import layers from './import-layers.js'

const CONTRACT = '/src-preload/contract/**'
/** Node's built-in modules, `node:fs/promises` included */
const NODE = ['node:*', 'node:*/*']
/** every host of the engine: the desktop app, browser mode, the CLI */
const ENGINE = [
  '/src-main/core/**',
  '/src-main/adapters/**',
  '/src-main/services/**',
  '/src-main/ipc/**',
]

/** where each rule is explained */
const DOCS = {
  layers: 'docs/architecture.md#layers',
  renderer: 'docs/architecture.md#renderer-features-and-screens',
  globals: 'docs/architecture.md#the-cores-globals',
  cycles: 'docs/architecture.md#import-cycles',
  length: 'docs/architecture.md#function-length',
  ports: 'docs/architecture.md#services-on-ports',
}

/**
 * The composition files: they make the adapters and hand them to the services as ports
 * (`core/service-ports.ts`, `core/mcp-ports.ts`). Every other file of `services/` and `ipc/`
 * works through the ports and may not import an adapter.
 */
const COMPOSITION = [
  'src-main/services/host/app-services.ts',
  'src-main/services/host/app-host.ts',
  'src-main/services/tools/tool-runtime.ts',
]

const RENDERER = 'src-renderer/src'
/**
 * The renderer is a web page: it reaches main only through the bridge, and knows the
 * contract and main as types. Every folder of it may use these libraries.
 */
const RENDERER_LIBS = [
  'react',
  'react/**',
  'react-dom',
  'react-dom/**',
  '@tanstack/react-query',
  '@radix-ui/*',
  'zustand',
  'zustand/**',
  'react-virtuoso',
  'react-markdown',
  'remark-gfm',
  'marked',
  'shiki',
  'shiki/**',
  '@shikijs/**',
  '@vitejs/plugin-react/preamble',
  // the rules of a server's form (elicitation): plain functions with no imports, shared
  // with the engine and the CLI so that all three check an answer alike
  '/src-preload/contract/elicitation',
  // how amounts of money are shown and what a price may be: the same, no imports
  '/src-preload/contract/usage-format',
  // tools' views (MCP Apps): the extension's constants and the zod check of every message a
  // view sends, which the window runs before it uses anything of it
  '/src-preload/contract/mcp-apps',
  '/src-preload/contract/view-messages',
]
const RENDERER_TYPES = [CONTRACT, '/src-main/**']

/** what every adapter may import */
const ADAPTERS = [
  '/src-main/adapters/**',
  '/src-main/core/**',
  CONTRACT,
  ...NODE,
  'better-sqlite3',
  // the schema language of our own data (settings, stored rows, the MCP configuration);
  // conf is the desktop shell's (through electron-store), ajv the core's (servers' tool schemas)
  'zod',
  'undici',
  'picomatch',
  'cross-spawn',
  // fetch_url's page text (htmlparser2 underneath: linear on hostile markup)
  'html-to-text',
  // reading a GGUF model's header (local models); loaded only when a model is added
  'node-llama-cpp',
]

/** @type {Array<{ files: string[], ignores?: string[], layer: string, why: string, allow: string[], allowTypes?: string[], own?: string, docs?: string }>} */
export const LAYERS = [
  {
    files: ['src-preload/contract/**/*.ts'],
    layer: 'src-preload/contract',
    why: 'the contract is the one definition of what crosses the process boundary: zod only.',
    allow: [CONTRACT, 'zod'],
  },
  {
    files: ['src-preload/*.ts'],
    layer: 'src-preload',
    why: 'a sandboxed preload gets electron and the contract only.',
    allow: [CONTRACT, 'electron'],
  },
  {
    files: ['src-main/core/**/*.ts'],
    layer: 'src-main/core',
    why: 'the core is plain TypeScript: storage, files, processes and Electron come in through ports.',
    allow: [
      '/src-main/core/**',
      // ids and tool fingerprints; nothing else of Node (files, processes, network) here
      'node:crypto',
      // the LLM client, tool-argument validation, linear-time regexes
      'openai',
      'openai/**',
      'ajv',
      're2-wasm',
      // validating what model servers say about themselves (capabilities, context windows)
      'zod',
    ],
    allowTypes: [CONTRACT],
  },
  {
    files: ['src-main/adapters/**/*.ts'],
    layer: 'src-main/adapters',
    why: 'adapters implement the core’s ports with their libraries; they know no host.',
    allow: ADAPTERS,
  },
  {
    files: ['src-main/adapters/mcp/**/*.ts'],
    layer: 'src-main/adapters/mcp',
    why: 'the MCP adapter is the one place that speaks MCP, through the SDK’s client.',
    allow: [...ADAPTERS, '@modelcontextprotocol/client', '@modelcontextprotocol/client/**'],
  },
  {
    files: ['src-main/adapters/mcpb/**/*.ts'],
    layer: 'src-main/adapters/mcpb',
    why: 'the extensions adapter is the one place that unpacks zip archives (MCPB bundles).',
    allow: [...ADAPTERS, 'yauzl'],
  },
  {
    files: ['src-main/adapters/skills/**/*.ts'],
    layer: 'src-main/adapters/skills',
    why: 'the skills adapter is the one place that reads YAML (a SKILL.md frontmatter).',
    allow: [...ADAPTERS, 'yaml'],
  },
  {
    files: ['src-main/adapters/extract/**/*.ts'],
    layer: 'src-main/adapters/extract',
    why: 'the extractors are the one place that reads documents: what a file is, and its text.',
    allow: [
      ...ADAPTERS,
      'file-type/core.js',
      'pdfjs-dist/legacy/build/pdf.mjs',
      'mammoth',
      'officeparser',
    ],
  },
  {
    files: ['src-main/adapters/import/**/*.ts'],
    layer: 'src-main/adapters/import',
    why: 'the import adapter is the one place that reads export files: a streaming JSON parser and a streaming zip reader.',
    allow: [...ADAPTERS, '@streamparser/json', 'yauzl'],
  },
  {
    files: ['src-main/adapters/knowledge/**/*.ts'],
    layer: 'src-main/adapters/knowledge',
    why: 'the knowledge index is the one place that watches sources, stores vectors and asks an embeddings endpoint.',
    allow: [...ADAPTERS, '@parcel/watcher', 'sqlite-vec', 'openai'],
  },
  {
    files: ['src-main/adapters/attachments/**/*.ts'],
    layer: 'src-main/adapters/attachments',
    why: 'the attachments adapter is the one place that decodes images (sharp, prebuilt).',
    allow: [...ADAPTERS, 'sharp'],
  },
  {
    files: ['src-main/local-runtime/**/*.ts'],
    layer: 'src-main/local-runtime',
    why: 'the local model runtime is its own process: node-llama-cpp behind an HTTP server, the model index to find files.',
    allow: [
      '/src-main/local-runtime/**',
      '/src-main/adapters/local-models/**',
      '/src-main/core/local-models/**',
      CONTRACT,
      ...NODE,
      'zod',
      'node-llama-cpp',
    ],
    allowTypes: ['/src-main/core/service-ports'],
  },
  {
    files: COMPOSITION,
    layer: 'src-main/services (composition)',
    why: 'a composition file makes the adapters and hands them to the services as ports; it knows no host.',
    allow: [...ENGINE, CONTRACT, ...NODE, 'zod'],
    docs: DOCS.ports,
  },
  {
    files: ['src-main/services/**/*.ts', 'src-main/ipc/**/*.ts'],
    ignores: COMPOSITION,
    layer: 'src-main/services',
    why: 'services work through the ports of core/service-ports.ts and core/mcp-ports.ts: only the composition files (services/host/app-services.ts, services/host/app-host.ts, services/tools/tool-runtime.ts) make adapters, and no host is known.',
    allow: [
      '/src-main/core/**',
      '/src-main/services/**',
      '/src-main/ipc/**',
      CONTRACT,
      ...NODE,
      'zod',
    ],
    docs: DOCS.ports,
  },
  {
    files: ['src-main/electron/**/*.ts', 'src-main/index.ts'],
    layer: 'src-main/electron',
    why: 'the desktop shell: the engine, the contract, Electron and Node, and which of the window’s languages the system prefers.',
    allow: [
      '/src-main/**',
      CONTRACT,
      'electron',
      'electron-store',
      ...NODE,
      '/src-renderer/src/i18n/languages',
    ],
  },
  {
    files: ['src-main/web/**/*.ts'],
    layer: 'src-main/web',
    why: 'browser mode runs without Electron.',
    allow: [...ENGINE, '/src-main/web/**', CONTRACT, 'ws', ...NODE],
  },
  {
    files: ['src-main/cli/**/*.ts'],
    layer: 'src-main/cli',
    why: 'the CLI runs without Electron.',
    allow: [...ENGINE, '/src-main/cli/**', CONTRACT, ...NODE],
  },
  {
    files: [`${RENDERER}/screens/**/*.{ts,tsx}`, `${RENDERER}/App.tsx`, `${RENDERER}/main.tsx`],
    layer: 'src-renderer/src/screens',
    why: 'screens put features together (App.tsx and main.tsx mount them): the whole renderer, nothing of main.',
    allow: [`/${RENDERER}/**`, ...RENDERER_LIBS],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
  {
    files: [`${RENDERER}/features/**/*.{ts,tsx}`],
    layer: 'src-renderer/src/features',
    why: 'a feature imports ui/, state/, platform/ and itself: what features share goes to ui/ or state/, what puts them together is a screen.',
    own: `${RENDERER}/features/*`,
    allow: [
      `/${RENDERER}/ui/**`,
      `/${RENDERER}/state/**`,
      `/${RENDERER}/platform/**`,
      `/${RENDERER}/i18n/**`,
      ...RENDERER_LIBS,
    ],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
  {
    files: [`${RENDERER}/ui/**/*.{ts,tsx}`],
    layer: 'src-renderer/src/ui',
    why: 'ui/ is the kit every feature shares (forms, dialogs, Markdown): it knows no feature.',
    allow: [
      `/${RENDERER}/ui/**`,
      `/${RENDERER}/state/**`,
      `/${RENDERER}/platform/**`,
      `/${RENDERER}/i18n/**`,
      ...RENDERER_LIBS,
    ],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
  {
    files: [`${RENDERER}/state/**/*.{ts,tsx}`],
    layer: 'src-renderer/src/state',
    why: 'state/ is the renderer’s data (live store, navigation, queries): no components.',
    allow: [
      `/${RENDERER}/state/**`,
      `/${RENDERER}/platform/**`,
      `/${RENDERER}/i18n/**`,
      ...RENDERER_LIBS,
    ],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
  {
    files: [`${RENDERER}/i18n/**/*.{ts,tsx}`],
    layer: 'src-renderer/src/i18n',
    why: 'i18n/ is the translation layer every folder of the renderer uses: it knows nothing above it.',
    allow: [`/${RENDERER}/i18n/**`, 'i18next', 'react-i18next', ...RENDERER_LIBS],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
  {
    files: [`${RENDERER}/platform/**/*.{ts,tsx}`],
    layer: 'src-renderer/src/platform',
    why: 'platform/ is the host (the preload’s bridge or a WebSocket): it knows nothing above it.',
    // fflate: browser mode's download of an export with files, one ZIP archive (download.ts)
    allow: [`/${RENDERER}/platform/**`, 'fflate', ...RENDERER_LIBS],
    allowTypes: RENDERER_TYPES,
    docs: DOCS.renderer,
  },
]

/** Node's globals, which the import rule cannot see: the core gets none of them (its ports bring what it needs). */
const NODE_GLOBALS = [
  ['Buffer', 'use Uint8Array, TextEncoder and TextDecoder'],
  ['process', 'what the host knows (environment, platform, arguments) comes in through a port'],
  ['fetch', 'requests go through the Fetch port (core/ports.ts)'],
  ['require', 'import what the core may use'],
  ['module', 'the core is ES modules'],
  ['exports', 'the core is ES modules'],
  ['__dirname', 'the core knows no files'],
  ['__filename', 'the core knows no files'],
  ['global', 'the core knows no host'],
  ['setImmediate', 'use setTimeout or a promise'],
  ['clearImmediate', 'use setTimeout or a promise'],
].map(([name, instead]) => ({
  name,
  message: `The core runs wherever the engine does and uses web-standard globals only: ${instead}. See ${DOCS.globals}`,
}))

export const layerRules = [
  ...LAYERS.map(({ files, ignores, docs = DOCS.layers, ...options }) => ({
    files,
    ...(ignores ? { ignores } : {}),
    plugins: { layers },
    rules: { 'layers/allowed-imports': ['error', { ...options, docs }] },
  })),
  {
    files: ['src-*/**/*.{ts,tsx,mts,cts,js,jsx,mjs,cjs}'],
    plugins: { layers },
    rules: {
      'layers/in-a-layer': ['error', { layers: LAYERS.flatMap((l) => l.files), docs: DOCS.layers }],
      'layers/no-cycle': ['error', { docs: DOCS.cycles }],
    },
  },
  {
    files: ['src-main/core/**/*.ts'],
    rules: {
      'no-restricted-globals': ['error', ...NODE_GLOBALS],
      'no-restricted-properties': [
        'error',
        ...['globalThis', 'global'].flatMap((object) =>
          NODE_GLOBALS.map(({ name, message }) => ({ object, property: name, message })),
        ),
      ],
    },
  },
  // every function is within its limit: a longer one fails the lint
  {
    files: ['src-main/**/*.ts'],
    plugins: { layers },
    rules: { 'layers/function-length': ['error', { max: 100, docs: DOCS.length }] },
  },
  {
    files: ['src-renderer/**/*.{ts,tsx}'],
    plugins: { layers },
    rules: { 'layers/function-length': ['error', { max: 150, docs: DOCS.length }] },
  },
]
