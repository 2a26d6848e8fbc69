/**
 * Issue 25, case 6: an imported assistant does not lower approvals by itself. A file whose
 * permission policy is looser than the user's (the settings' policy) is imported with the
 * user's policy (its own left unset) and the answer says what was not applied; the window then
 * asks, and `allowPolicy` (the CLI's `--allow-policy`) applies the file's. A policy as strict
 * or stricter is imported as it is. Through the routes, and through the built CLI.
 */
import { writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { PermissionPolicy } from '../../src-preload/contract/dto'
import { unwrap, type TestBridge } from '../support/bridges'
import { runCli, startCliEnv } from '../support/cli'
import { openTestHost } from '../support/host'

const file = (name: string, permissionPolicy: PermissionPolicy): string =>
  JSON.stringify({
    cairnAssistant: 1,
    assistant: {
      name,
      tools: { builtin: { mode: 'all', names: [] }, mcp: { servers: {}, others: 'all' } },
      permissionPolicy,
      limits: {},
    },
  })

describe('assistants.import with a looser policy', () => {
  let b: TestBridge
  let stop: () => Promise<void>
  beforeAll(async () => {
    ;({ b, stop } = await openTestHost({ prefix: 'cairn-import-policy-' }))
  })
  afterAll(() => stop())

  it("keeps the user's policy unless asked, and says which was not applied", async () => {
    // the settings' policy is "ask"
    const r = unwrap(await b.request('assistants.import', { text: file('Loose', 'allow-all') }))
    expect(r.assistant.permissionPolicy).toBeUndefined()
    expect(r.policyNotApplied).toBe('allow-all')
    const stored = unwrap(await b.request('assistants.get', { id: r.assistant.id }))
    expect(stored.permissionPolicy).toBeUndefined()

    const readOnly = unwrap(
      await b.request('assistants.import', { text: file('Reads', 'read-only') }),
    )
    expect(readOnly).toMatchObject({ policyNotApplied: 'read-only' })
    expect(readOnly.assistant.permissionPolicy).toBeUndefined()
  })

  it('applies it when the user agreed (allowPolicy)', async () => {
    const r = unwrap(
      await b.request('assistants.import', {
        text: file('Agreed', 'allow-all'),
        allowPolicy: true,
      }),
    )
    expect(r.assistant.permissionPolicy).toBe('allow-all')
    expect(r.policyNotApplied).toBeNull()
  })

  it('imports a policy as strict or stricter as it is', async () => {
    for (const p of ['ask', 'deny-all'] as const) {
      const r = unwrap(await b.request('assistants.import', { text: file(`Strict ${p}`, p) }))
      expect(r.assistant.permissionPolicy).toBe(p)
      expect(r.policyNotApplied).toBeNull()
    }
  })

  it('compares with the settings as they are now', async () => {
    unwrap(await b.request('settings.update', { permissionPolicy: 'allow-all' }))
    const r = unwrap(await b.request('assistants.import', { text: file('Now fine', 'allow-all') }))
    expect(r.assistant.permissionPolicy).toBe('allow-all')
    unwrap(await b.request('settings.update', { permissionPolicy: 'ask' }))
  })
})

describe('cairn assistants import with a looser policy', () => {
  let env: NodeJS.ProcessEnv
  let dir: string
  let stop: () => Promise<void>
  beforeAll(async () => {
    ;({ env, dir, stop } = await startCliEnv({ prefix: 'cairn-cli-import-policy-' }))
  })
  afterAll(() => stop())

  it('needs --allow-policy; without it the assistant keeps your policy, and it says so', async () => {
    const path = join(dir, 'loose.assistant.json')
    writeFileSync(path, file('Loose', 'allow-all'))
    const r = await runCli(['assistants', 'import', path], { env })
    expect(r.code).toBe(0)
    expect(r.stdout).toMatch(/Imported the assistant "Loose"/)
    expect(r.stdout).toMatch(/policy "allow-all".*not applied.*--allow-policy/s)
    const shown = await runCli(['assistants', 'show', 'Loose', '--json'], { env })
    expect(JSON.parse(shown.stdout)).not.toHaveProperty('permissionPolicy')

    const agreed = await runCli(['assistants', 'import', path, '--allow-policy'], { env })
    expect(agreed.code).toBe(0)
    expect(agreed.stdout).not.toMatch(/not applied/)
    const again = await runCli(['assistants', 'show', 'Loose (2)', '--json'], { env })
    expect(JSON.parse(again.stdout)).toMatchObject({ permissionPolicy: 'allow-all' })
  })
})
