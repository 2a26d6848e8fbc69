/**
 * A server asking the user to open an address (URL-mode elicitation) from the CLI: on a
 * terminal it is asked, then opened with $BROWSER and accepted; without one it is declined
 * and stderr says so; an address that is not a web address is never opened.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { terminalElicitor } from '../../src-main/cli/elicitor'
import type { ElicitationRequestEvent } from '../../src-preload/contract/events'
import { startCliEnv, runCli } from '../support/cli'
import { fakeStream } from '../support/fake-terminal'
import { fixture } from '../support/mcp'
import {
  lastToolContent,
  textReply,
  toolCallsReply,
  type ScriptedServer,
} from '../support/openai-server'
import { startCliOnTerminal } from '../support/pty-cli'

let server: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let configFile: string
let opened: string
let stop: () => Promise<void>
beforeEach(async () => {
  ;({ server, dir, env, configFile, stop } = await startCliEnv({
    prefix: 'cairn-cli-url-',
    models: ['m'],
    mcpServers: { site: { command: process.execPath, args: [fixture('elicit-url.mjs')] } },
  }))
  opened = join(dir, 'opened.txt')
  // a "browser" that writes down the address it was given
  const browser = join(dir, 'browser.mjs')
  writeFileSync(
    browser,
    `import { writeFileSync } from 'node:fs'\nwriteFileSync(${JSON.stringify(opened)}, process.argv[2])\n`,
  )
  env['BROWSER'] = `${process.execPath} ${browser}`
})
afterEach(() => stop())

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 1000 && !check(); i++) await new Promise((r) => setTimeout(r, 10))
  expect(check()).toBe(true)
}

describe('a server asking to open an address', () => {
  it('on a terminal: asked, opened with $BROWSER after yes, and accepted', async () => {
    server.enqueue(toolCallsReply([{ name: 'site__visit', arguments: '{}' }]), (req) =>
      textReply(`Tool: ${lastToolContent(req)}`),
    )
    const t = startCliOnTerminal(['--mcp-config', configFile, '--approve', 'all', 'sign me in'], {
      env,
    })
    const asked = await t.waitFor('Open it in your browser? [y]es / [d]ecline / [c]ancel: ')
    expect(asked).toContain('site asks: Sign in to go on.')
    expect(asked).toContain('address: https://example.test/authorize?state=1')
    expect(existsSync(opened)).toBe(false)
    t.type('y\r')
    await t.waitFor('Opened in your browser.')
    await t.waitFor('Tool: answer: {"action":"accept"}')
    expect((await t.done).code).toBe(0)
    // the browser runs on its own: wait for it to write the address down
    await until(() => existsSync(opened))
    expect(readFileSync(opened, 'utf8')).toBe('https://example.test/authorize?state=1')
  })

  it('on a terminal: declining opens nothing and tells the server', async () => {
    server.enqueue(toolCallsReply([{ name: 'site__visit', arguments: '{}' }]), (req) =>
      textReply(`Tool: ${lastToolContent(req)}`),
    )
    const t = startCliOnTerminal(['--mcp-config', configFile, '--approve', 'all', 'sign me in'], {
      env,
    })
    await t.waitFor('Open it in your browser?')
    t.type('d\r')
    await t.waitFor('Tool: answer: {"action":"decline"}')
    expect((await t.done).code).toBe(0)
    expect(existsSync(opened)).toBe(false)
  })

  it('without a terminal: declined, and stderr says so', async () => {
    server.enqueue(toolCallsReply([{ name: 'site__visit', arguments: '{}' }]), (req) =>
      textReply(`Tool: ${lastToolContent(req)}`),
    )
    const r = await runCli(['--mcp-config', configFile, '--approve', 'all', 'sign me in'], {
      env,
    })
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('Tool: answer: {"action":"decline"}')
    expect(r.stderr).toMatch(
      /Declined site's question: there is no terminal to ask it on \(it asks to open an address\)/,
    )
    expect(existsSync(opened)).toBe(false)
  })

  it('an address that is not a web address is never opened: only decline or cancel', async () => {
    const input = fakeStream(true)
    const output = fakeStream(true)
    const req: ElicitationRequestEvent = {
      type: 'elicitation_request',
      sessionId: 's',
      turnId: 't',
      at: 0,
      requestId: 'q1',
      toolCallId: 'c1',
      server: 'site',
      mode: 'url',
      message: 'Open this',
      url: 'file:///etc/passwd',
    }
    const pending = terminalElicitor(input, output, () => {}, undefined).request(
      req,
      new AbortController().signal,
    )
    await until(() => output.text().includes('[d]ecline / [c]ancel: '))
    expect(output.text()).toContain('This is not a web address; it cannot be opened.')
    input.write('y\n')
    await until(() => output.text().includes('Please answer d or c.'))
    input.write('c\n')
    expect(await pending).toEqual({ action: 'cancel' })
  })
})
