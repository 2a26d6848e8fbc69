/**
 * Real `.mcpb` bundles for tests, zipped with fflate: a manifest and a small Node MCP
 * server made with the SDK (`greet`, which says which settings it was started with), and
 * hostile ones built entry by entry (names, links, sizes the zip declares).
 */
import { createRequire } from 'node:module'
import { zipSync, type Zippable } from 'fflate'

const require = createRequire(import.meta.url)
const enc = (s: string): Uint8Array => new TextEncoder().encode(s)
/** a zip's bytes in an ArrayBuffer of their own (what the routes take) */
const own = (zip: Uint8Array): Uint8Array<ArrayBuffer> => new Uint8Array(zip)
export type Bundle = Uint8Array<ArrayBuffer>

/** the server: `greet { name }` answers with the key and units it was started with */
export function greetServerSource(): string {
  const sdk = (p: string): string =>
    JSON.stringify(require.resolve(`@modelcontextprotocol/sdk/${p}`))
  return `const { Server } = require(${sdk('server/index.js')})
const { StdioServerTransport } = require(${sdk('server/stdio.js')})
const { CallToolRequestSchema, ListToolsRequestSchema } = require(${sdk('types.js')})
const server = new Server({ name: 'greeter', version: '1.0.0' }, { capabilities: { tools: {} } })
server.setRequestHandler(ListToolsRequestSchema, async () => ({
  tools: [{ name: 'greet', description: 'Greets someone.', inputSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] } }],
}))
server.setRequestHandler(CallToolRequestSchema, async (request) => {
  const units = process.argv.find((a) => a.startsWith('--units=')) || ''
  return { content: [{ type: 'text', text: 'Hello ' + request.params.arguments.name + ', key ' + process.env.GREETER_KEY + ', ' + units + ', in ' + process.cwd() }] }
})
server.connect(new StdioServerTransport())
`
}

export function greeterManifest(over: Record<string, unknown> = {}): Record<string, unknown> {
  return {
    manifest_version: '0.3',
    name: 'greeter',
    display_name: 'Greeter',
    version: '1.2.0',
    description: 'Says hello.',
    author: { name: 'Ada Example', email: 'ada@example.com' },
    license: 'MIT',
    server: {
      type: 'node',
      entry_point: 'server/index.cjs',
      mcp_config: {
        command: 'node',
        args: ['${__dirname}/server/index.cjs', '--units=${user_config.units}'],
        env: { GREETER_KEY: '${user_config.api_key}' },
      },
    },
    tools: [{ name: 'greet', description: 'Greets someone.' }],
    prompts: [{ name: 'welcome', description: 'A welcome.', text: 'Welcome ${arguments.who}' }],
    compatibility: { platforms: ['darwin', 'win32', 'linux'], runtimes: { node: '>=18' } },
    user_config: {
      api_key: {
        type: 'string',
        title: 'API key',
        description: 'Your key.',
        sensitive: true,
        required: true,
      },
      units: {
        type: 'string',
        title: 'Units',
        description: 'metric or imperial',
        default: 'metric',
      },
    },
    some_future_field: { anything: true },
    ...over,
  }
}

/** a bundle: the manifest and the server, and any other files */
export function greeterBundle(
  manifest: Record<string, unknown> = greeterManifest(),
  extra: Zippable = {},
): Bundle {
  return own(
    zipSync({
      'manifest.json': enc(JSON.stringify(manifest)),
      server: { 'index.cjs': enc(greetServerSource()) },
      ...extra,
    }),
  )
}

/** a zip whose one entry has this name (fflate writes any name it is given) */
export function zipWithEntry(name: string, content = 'x'): Bundle {
  return own(
    zipSync({ 'manifest.json': enc(JSON.stringify(greeterManifest())), [name]: enc(content) }),
  )
}

/** a zip with a symbolic link (unix mode 120777 in the entry's external attributes) */
export function zipWithLink(): Bundle {
  return own(
    zipSync({
      'manifest.json': enc(JSON.stringify(greeterManifest())),
      server: { 'index.cjs': enc(greetServerSource()) },
      escape: [enc('/etc/passwd'), { os: 3, attrs: (0o120777 << 16) >>> 0 }],
    }),
  )
}

/**
 * A zip whose entry declares `declared` bytes unpacked but holds `actual` (the central
 * directory's and the local header's size fields rewritten).
 */
export function zipLyingAboutSize(actual: number, declared: number): Bundle {
  const zip = own(
    zipSync(
      {
        'manifest.json': enc(JSON.stringify(greeterManifest())),
        'big.bin': new Uint8Array(actual),
      },
      { level: 9 },
    ),
  )
  const view = new DataView(zip.buffer, zip.byteOffset, zip.byteLength)
  for (let i = 0; i + 4 <= zip.length; i++) {
    const sig = view.getUint32(i, true)
    if (sig === 0x04034b50 && nameAt(zip, i + 30, view.getUint16(i + 26, true)) === 'big.bin')
      view.setUint32(i + 22, declared, true)
    if (sig === 0x02014b50 && nameAt(zip, i + 46, view.getUint16(i + 28, true)) === 'big.bin')
      view.setUint32(i + 24, declared, true)
  }
  return zip
}

function nameAt(zip: Uint8Array, at: number, length: number): string {
  return new TextDecoder().decode(zip.subarray(at, at + length))
}
