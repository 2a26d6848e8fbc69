/** One server's entry of the MCP configuration: checked with zod, each problem named by its field. */
import { describe, expect, it } from 'vitest'
import { McpConfigError, parseServerConfig } from '../../src-main/adapters/mcp/config'

const where = 'mcpServers["s"]'
const bad = (entry: unknown): string => {
  try {
    parseServerConfig('s', entry)
  } catch (e) {
    expect(e).toBeInstanceOf(McpConfigError)
    return (e as Error).message
  }
  throw new Error('accepted')
}

describe('a server entry', () => {
  it('keeps what Cairn knows and drops other apps’ keys', () => {
    expect(
      parseServerConfig('s', {
        command: 'npx',
        args: ['-y', 'pkg'],
        env: { A: '1' },
        cwd: '/srv',
        timeoutMs: 5_000,
        disabled: true,
        somethingElse: { x: 1 },
      }),
    ).toEqual({
      command: 'npx',
      args: ['-y', 'pkg'],
      env: { A: '1' },
      cwd: '/srv',
      timeoutMs: 5_000,
      disabled: true,
    })
    expect(parseServerConfig('s', { url: 'https://x.example/mcp', headers: { H: 'v' } })).toEqual({
      url: 'https://x.example/mcp',
      headers: { H: 'v' },
    })
  })

  it('names the field and what it must be', () => {
    const cases: [unknown, string][] = [
      [{ command: '  ' }, `${where}.command is empty`],
      [{ command: 'x', args: 'one two' }, `${where}.args must be a list of strings`],
      [{ command: 'x', args: ['a', 2] }, `${where}.args must be a list of strings`],
      [{ command: 'x', env: ['A=1'] }, `${where}.env must be an object of strings`],
      [{ command: 'x', env: { A: 1 } }, `${where}.env.A must be a string`],
      [{ command: 'x', cwd: 3 }, `${where}.cwd must be a string`],
      [
        { command: 'x', timeoutMs: 0 },
        `${where}.timeoutMs must be a positive whole number of milliseconds`,
      ],
      [
        { command: 'x', maxTimeoutMs: Infinity },
        `${where}.maxTimeoutMs must be a positive whole number of milliseconds`,
      ],
      [{ url: 'not a url' }, `${where}.url is not a valid URL: not a url`],
      [{ url: 'ftp://x.example/' }, `${where}.url must be http or https`],
      [{ url: 'https://x.example/', headers: { H: 1 } }, `${where}.headers.H must be a string`],
      [[], `${where} must be an object`],
      [{ command: 'x', disabled: 'yes' }, `${where}.disabled must be true or false`],
      [
        { command: 'x', timeoutMs: 1.5 },
        `${where}.timeoutMs must be a positive whole number of milliseconds`,
      ],
    ]
    for (const [entry, message] of cases) expect(bad(entry)).toBe(message)
    expect(bad({ args: [] })).toMatch(/needs a "command".*or a "url"/)
  })
})
