/**
 * The twelve MCP servers `npm run try:servers` installs and configures: their pinned
 * packages, how each is started, and the one call the scripted model makes to each.
 */
import { join } from 'node:path'

/** the folders and addresses a run prepares for the servers */
export interface Work {
  /** the run's own temporary folder */
  root: string
  /** a folder with a git repository, a JavaScript file and an ESLint configuration */
  workspace: string
  /** a page served on 127.0.0.1 for the two browser servers */
  pageUrl: string
  /** where the memory server keeps its graph */
  memoryFile: string
  /** the SQLite database file */
  database: string
  /** the home folder Desktop Commander keeps its configuration in */
  commanderHome: string
  /** an address on this machine where nothing listens (for servers that fetch on their own) */
  nowhere: string
}

export interface ServerPlan {
  /** the server's name in the configuration */
  name: string
  pkg: string
  version: string
  /** the program in the cache's node_modules/.bin */
  bin: string
  args(w: Work): string[]
  env?(w: Work): Record<string, string>
  /** what the scripted model does with the server's tools, in order */
  calls: PlannedCall[]
}

export interface PlannedCall {
  /** what the scripted model looks for with find_tools */
  query: string
  /** the server's own name of the tool the model calls */
  tool: string
  /** `earlier`: the answers of this server's calls before this one, in order */
  arguments(w: Work, earlier: readonly string[]): Record<string, unknown>
  /** whether the tool's answer shows the call did what was asked */
  expect(result: string): boolean
}

/** Debian's Chromium, for the two browser servers (no browser is downloaded) */
export const CHROMIUM = '/usr/bin/chromium'

export const SERVERS: ServerPlan[] = [
  {
    name: 'memory',
    pkg: '@modelcontextprotocol/server-memory',
    version: '2026.8.31',
    bin: 'mcp-server-memory',
    args: () => [],
    env: (w) => ({ MEMORY_FILE_PATH: w.memoryFile }),
    calls: [
      {
        query: 'memory create entities knowledge graph',
        tool: 'create_entities',
        arguments: () => ({
          entities: [
            { name: 'Cairn', entityType: 'project', observations: ['asks before it acts'] },
          ],
        }),
        expect: (r) => r.includes('Cairn'),
      },
      {
        query: 'memory read graph',
        tool: 'read_graph',
        arguments: () => ({}),
        expect: (r) => r.includes('asks before it acts'),
      },
    ],
  },
  {
    name: 'sequential-thinking',
    pkg: '@modelcontextprotocol/server-sequential-thinking',
    version: '2026.8.31',
    bin: 'mcp-server-sequential-thinking',
    args: () => [],
    env: () => ({ DISABLE_THOUGHT_LOGGING: 'true' }),
    calls: [
      {
        query: 'sequential thinking',
        tool: 'sequentialthinking',
        arguments: () => ({
          thought: 'Twelve servers answer one conversation.',
          nextThoughtNeeded: false,
          thoughtNumber: 1,
          totalThoughts: 1,
        }),
        expect: (r) => r.includes('thoughtNumber'),
      },
    ],
  },
  {
    name: 'filesystem',
    pkg: '@modelcontextprotocol/server-filesystem',
    version: '2026.8.31',
    bin: 'mcp-server-filesystem',
    args: (w) => [w.workspace],
    calls: [
      {
        query: 'filesystem read text file',
        tool: 'read_text_file',
        arguments: (w) => ({ path: join(w.workspace, 'notes.txt') }),
        expect: (r) => r.includes('cairns mark trails'),
      },
    ],
  },
  {
    name: 'everything',
    pkg: '@modelcontextprotocol/server-everything',
    version: '2026.8.31',
    bin: 'mcp-server-everything',
    args: () => ['stdio'],
    calls: [
      {
        query: 'everything echo',
        tool: 'echo',
        arguments: () => ({ message: 'hello from Cairn' }),
        expect: (r) => r.includes('hello from Cairn'),
      },
      {
        // structured content, checked by the client against the tool's output schema
        query: 'everything structured content',
        tool: 'get-structured-content',
        arguments: () => ({ location: 'Chicago' }),
        expect: (r) => /temperature/i.test(r),
      },
      {
        query: 'everything resource links',
        tool: 'get-resource-links',
        arguments: () => ({ count: 2 }),
        expect: (r) => r.includes('demo://'),
      },
      {
        query: 'everything resource reference embedded',
        tool: 'get-resource-reference',
        arguments: () => ({}),
        expect: (r) => r.includes('demo://'),
      },
      {
        // text and an image, both with annotations
        query: 'everything annotated message',
        tool: 'get-annotated-message',
        arguments: () => ({ messageType: 'success', includeImage: true }),
        expect: (r) => /image/i.test(r),
      },
    ],
  },
  {
    name: 'playwright',
    pkg: '@playwright/mcp',
    version: '0.0.83',
    bin: 'playwright-mcp',
    args: () => [
      '--browser',
      'chromium',
      '--executable-path',
      CHROMIUM,
      '--headless',
      '--no-sandbox',
      '--isolated',
    ],
    calls: [
      {
        query: 'playwright browser navigate url',
        tool: 'browser_navigate',
        arguments: (w) => ({ url: w.pageUrl }),
        expect: (r) => r.includes('Trail marker'),
      },
      {
        // `scale` is required in its schema and has a default: a call may leave it out
        query: 'playwright take screenshot',
        tool: 'browser_take_screenshot',
        arguments: () => ({}),
        expect: (r) => /screenshot/i.test(r),
      },
    ],
  },
  {
    name: 'chrome-devtools',
    pkg: 'chrome-devtools-mcp',
    version: '1.11.0',
    bin: 'chrome-devtools-mcp',
    args: () => [
      '--executablePath',
      CHROMIUM,
      '--headless',
      '--isolated',
      '--chromeArg=--no-sandbox',
      '--no-usage-statistics',
      '--no-performance-crux',
    ],
    env: () => ({
      CHROME_DEVTOOLS_MCP_NO_USAGE_STATISTICS: '1',
      CHROME_DEVTOOLS_MCP_NO_UPDATE_CHECKS: '1',
    }),
    calls: [
      {
        query: 'chrome devtools new page url',
        tool: 'new_page',
        arguments: (w) => ({ url: w.pageUrl }),
        expect: (r) => r.includes('127.0.0.1'),
      },
      {
        query: 'chrome devtools take snapshot',
        tool: 'take_snapshot',
        // the page's id, as new_page listed it ("2: Trail marker (http://…) [selected]")
        arguments: (_w, earlier) => ({
          pageId: Number(/^(\d+): Trail marker/m.exec(earlier[0] ?? '')?.[1] ?? 1),
        }),
        expect: (r) => r.includes('Trail marker'),
      },
      {
        query: 'chrome devtools take screenshot',
        tool: 'take_screenshot',
        arguments: (_w, earlier) => ({
          pageId: Number(/^(\d+): Trail marker/m.exec(earlier[0] ?? '')?.[1] ?? 1),
        }),
        expect: (r) => /image/i.test(r),
      },
    ],
  },
  {
    name: 'git',
    pkg: '@cyanheads/git-mcp-server',
    version: '2.15.3',
    bin: 'git-mcp-server',
    args: () => [],
    env: (w) => ({ GIT_BASE_DIR: w.workspace, MCP_LOG_LEVEL: 'error' }),
    calls: [
      {
        query: 'git log commits',
        tool: 'git_log',
        arguments: (w) => ({ path: w.workspace }),
        expect: (r) => r.includes('First marker'),
      },
      {
        query: 'git status working tree',
        tool: 'git_status',
        arguments: (w) => ({ path: w.workspace }),
        expect: (r) => r.includes('main'),
      },
    ],
  },
  {
    name: 'time',
    pkg: 'time-mcp',
    version: '1.0.6',
    bin: 'time-mcp',
    args: () => [],
    calls: [
      {
        query: 'time current',
        tool: 'current_time',
        arguments: () => ({ format: 'YYYY-MM-DD HH:mm:ss', timezone: 'UTC' }),
        expect: (r) => /\d{4}-\d{2}-\d{2}/.test(r),
      },
    ],
  },
  {
    name: 'sqlite',
    pkg: 'mcp-server-sqlite-npx',
    version: '0.8.0',
    bin: 'mcp-server-sqlite-npx',
    args: (w) => [w.database],
    calls: [
      {
        query: 'sqlite create table',
        tool: 'create_table',
        arguments: () => ({ query: 'CREATE TABLE trails (id INTEGER PRIMARY KEY, name TEXT)' }),
        // a statement that returns no rows is answered with an empty list; read_query shows
        // that the table and its row are there
        expect: (r) => r.trim() === '[]',
      },
      {
        query: 'sqlite write query insert',
        tool: 'write_query',
        arguments: () => ({ query: "INSERT INTO trails (name) VALUES ('Ridge path')" }),
        expect: (r) => r.trim() === '[]',
      },
      {
        query: 'sqlite read query select',
        tool: 'read_query',
        arguments: () => ({ query: 'SELECT name FROM trails' }),
        expect: (r) => r.includes('Ridge path'),
      },
    ],
  },
  {
    name: 'code-runner',
    pkg: 'mcp-server-code-runner',
    version: '0.1.8',
    bin: 'mcp-server-code-runner',
    args: () => [],
    calls: [
      {
        query: 'run code snippet',
        tool: 'run-code',
        arguments: () => ({ code: 'console.log(6 * 7)', languageId: 'javascript' }),
        expect: (r) => r.includes('42'),
      },
    ],
  },
  {
    name: 'eslint',
    pkg: '@eslint/mcp',
    version: '0.3.13',
    bin: 'mcp',
    args: () => [],
    calls: [
      {
        query: 'eslint lint files',
        tool: 'lint-files',
        arguments: (w) => ({ filePaths: [join(w.workspace, 'hello.js')] }),
        expect: (r) => r.includes('no-unused-vars'),
      },
    ],
  },
  {
    name: 'desktop-commander',
    pkg: '@wonderwhy-er/desktop-commander',
    version: '0.2.52',
    bin: 'desktop-commander',
    args: () => ['--no-onboarding'],
    env: (w) => ({
      HOME: w.commanderHome,
      DESKTOP_COMMANDER_DISABLE_TELEMETRY: '1',
      DC_FLAG_URL: w.nowhere,
    }),
    calls: [
      {
        query: 'desktop commander list directory',
        tool: 'list_directory',
        arguments: (w) => ({ path: w.workspace }),
        expect: (r) => r.includes('hello.js'),
      },
      {
        query: 'desktop commander start process terminal command',
        tool: 'start_process',
        arguments: () => ({ command: 'echo cairn-$((6*7))', timeout_ms: 10_000 }),
        expect: (r) => r.includes('cairn-42'),
      },
    ],
  },
]

/**
 * The conversation's second turn: a tool the first turn called last is offered again
 * without a search; one it called early is looked up again.
 */
export const SECOND_TURN: { server: string; call: PlannedCall }[] = [
  {
    server: 'sqlite',
    call: {
      query: 'sqlite read query select',
      tool: 'read_query',
      arguments: () => ({ query: 'SELECT count(*) AS trails FROM trails' }),
      expect: (r) => r.includes('"trails": 1'),
    },
  },
  {
    server: 'memory',
    call: {
      query: 'memory read graph',
      tool: 'read_graph',
      arguments: () => ({}),
      expect: (r) => r.includes('asks before it acts'),
    },
  },
]
