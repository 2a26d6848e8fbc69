/**
 * Hostile `.mcpb` bundles are refused with a message that says what is wrong, and leave
 * nothing behind: no staged folder, no installed one, no server. Real zips (fflate), the
 * real unpacker (yauzl) and the real routes.
 */
import { existsSync, readdirSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { unwrap, type TestBridge } from '../support/bridges'
import { openTestHost, type TestHost } from '../support/host'
import {
  greeterBundle,
  greeterManifest,
  zipLyingAboutSize,
  zipWithEntry,
  zipWithLink,
} from '../support/mcpb'

let t: TestHost
let b: TestBridge
beforeAll(async () => {
  t = await openTestHost({ prefix: 'cairn-mcpb-hostile-' })
  b = t.b
})
afterAll(() => t.stop())

async function refused(data: Uint8Array<ArrayBuffer>): Promise<string> {
  const r = await b.request('mcp.extensionOpen', { name: 'bad.mcpb', data })
  if (r.ok) throw new Error('the bundle was accepted')
  expect(r.error.code).toBe('bad_request')
  // nothing left: no staged folder, nothing installed, nothing written outside
  const ext = join(t.dir, 'data', 'extensions')
  if (existsSync(ext)) expect(readdirSync(ext).filter((f) => f !== '.staging')).toEqual([])
  if (existsSync(join(ext, '.staging'))) expect(readdirSync(join(ext, '.staging'))).toEqual([])
  expect(existsSync(join(t.dir, 'evil.txt'))).toBe(false)
  expect(unwrap(await b.request('mcp.list', {})).servers).toEqual([])
  return r.error.message
}

describe('hostile bundles', () => {
  it('an entry that climbs out of the folder (zip-slip)', async () => {
    expect(await refused(zipWithEntry('../../evil.txt'))).toBe(
      'bad.mcpb cannot be installed: the entry "../../evil.txt" points outside the bundle\'s folder ("..")',
    )
  })

  it('an absolute path, and a name with backslashes', async () => {
    expect(await refused(zipWithEntry('/tmp/evil.txt'))).toContain('has an absolute path')
    expect(await refused(zipWithEntry('..\\evil.txt'))).toContain('uses "\\" in its name')
  })

  it('a symbolic link', async () => {
    expect(await refused(zipWithLink())).toContain(
      'the entry "escape" is a link, which could point anywhere',
    )
  })

  it('an entry that declares more than the limit, and one that holds more than it declares', async () => {
    expect(await refused(zipLyingAboutSize(10, 300 * 1024 * 1024))).toContain(
      'the entry "big.bin" unpacks to 300 MB, more than 100 MB',
    )
    expect(await refused(zipLyingAboutSize(50_000, 10))).toContain('bad.mcpb cannot be installed')
  })

  it('a zip bomb: an entry that expands far past any real file', async () => {
    const bomb = greeterBundle(greeterManifest(), { 'zeros.bin': new Uint8Array(4 * 1024 * 1024) })
    expect(await refused(bomb)).toMatch(/"zeros.bin" expands \d+ times: a zip bomb/)
  })

  it('not a zip, no manifest, a manifest with a wrong type (named), a missing entry point', async () => {
    expect(await refused(new Uint8Array(new TextEncoder().encode('just text')))).toContain(
      'not a zip archive',
    )
    expect(await refused(zipWithEntry('readme.txt').subarray(0, 0))).toContain('not a zip')
    const { zipSync } = await import('fflate')
    expect(await refused(new Uint8Array(zipSync({ 'readme.txt': new Uint8Array(3) })))).toContain(
      'it has no manifest.json at its top',
    )
    expect(await refused(greeterBundle(greeterManifest({ version: 3 })))).toBe(
      'bad.mcpb cannot be installed: its manifest.json: version must be text',
    )
    const noArgs = greeterManifest()
    ;(noArgs['server'] as { mcp_config: { args: unknown } }).mcp_config.args = 'node index.js'
    expect(await refused(greeterBundle(noArgs))).toContain('server.mcp_config.args must be a list')
    expect(
      await refused(
        greeterBundle(
          greeterManifest({
            server: {
              type: 'node',
              entry_point: 'server/missing.js',
              mcp_config: { command: 'node' },
            },
          }),
        ),
      ),
    ).toContain('entry point "server/missing.js" is not a file in the bundle')
  })
})
