/**
 * The router maps every failure once: an ExpectedError goes as it is (code, message,
 * details); input its route's schema refuses is `bad_request` with each problem under its
 * path in `details.fields`; anything else is `internal`, with a short id that is both in the
 * answer and in the line logged with the stack.
 */
import { describe, expect, it } from 'vitest'
import { errorCodeSchema } from '../../src-preload/contract/errors'
import { routeInputs } from '../../src-preload/contract/routes'
import { ExpectedError } from '../../src-main/core/errors'
import { createRouter, internalErrorLine, type Handlers } from '../../src-main/ipc/router'

function routerWith(run: (route: string) => unknown) {
  const logged: { route: string; e: unknown; id: string }[] = []
  const handlers = Object.fromEntries(
    Object.keys(routeInputs).map((route) => [route, async () => run(route)]),
  ) as unknown as Handlers
  const router = createRouter(handlers, (route, e, id) => void logged.push({ route, e, id }))
  return { router, logged }
}

describe('the router’s one mapping of errors', () => {
  it('input the schema refuses: bad_request, each problem under its path in details.fields', async () => {
    const { router } = routerWith(() => ({}))
    const r = await router.handle('assistants.create', {
      assistant: {
        name: '',
        tools: {
          builtin: { mode: 'all', names: [] },
          mcp: { servers: {}, others: 'all' },
        },
        limits: { deadlineMs: -5 },
      },
    })
    expect(r.ok).toBe(false)
    if (r.ok || r.error.code !== 'bad_request') throw new Error('expected bad_request')
    const fields = r.error.details?.fields ?? {}
    expect(Object.keys(fields).sort()).toEqual(['assistant.limits.deadlineMs', 'assistant.name'])
    expect(fields['assistant.name']).toMatch(/\S/)
    // the message names them too, for a reader of a log or a terminal
    expect(r.error.message).toMatch(/^Invalid input for assistants\.create: .*assistant\.name/)
  })

  it('input that is not an object at all is refused under "(input)"', async () => {
    const { router } = routerWith(() => ({}))
    const r = await router.handle('sessions.get', 'not an object')
    expect(r).toMatchObject({ ok: false, error: { code: 'bad_request' } })
    if (!r.ok && r.error.code === 'bad_request')
      expect(Object.keys(r.error.details?.fields ?? {})).toEqual(['(input)'])
  })

  it('an ExpectedError goes as it is: its code, its message, its details', async () => {
    const { router, logged } = routerWith(() => {
      throw new ExpectedError('conflict', 'That name is taken.', {
        details: { fields: { name: 'That name is taken.' } },
      })
    })
    expect(await router.handle('assistants.list', {})).toEqual({
      ok: false,
      error: {
        code: 'conflict',
        message: 'That name is taken.',
        details: { fields: { name: 'That name is taken.' } },
      },
    })
    expect(logged).toEqual([])
  })

  it('anything else is internal, with an id that is in the answer and in the logged line', async () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'id')")
    const { router, logged } = routerWith(() => {
      throw bug
    })
    const r = await router.handle('sessions.list', {})
    if (r.ok || r.error.code !== 'internal') throw new Error('expected internal')
    const id = r.error.details?.id ?? ''
    expect(id).toMatch(/^[0-9a-f]{8}$/)
    expect(r.error.message).toContain(id)
    expect(r.error.message).toContain("reading 'id'")
    expect(logged).toEqual([{ route: 'sessions.list', e: bug, id }])
    const line = internalErrorLine('sessions.list', bug, id)
    expect(line).toContain(id)
    // the stack, to find the bug
    expect(line).toContain(bug.stack!.split('\n')[1]!.trim())
    // each one its own id
    const again = await router.handle('sessions.list', {})
    expect(!again.ok && again.error.code === 'internal' && again.error.details?.id).not.toBe(id)
  })

  it('a thrown value that is not an Error is internal too', async () => {
    const { router, logged } = routerWith(() => {
      throw 'plain string'
    })
    const r = await router.handle('sessions.list', {})
    expect(r).toMatchObject({ ok: false, error: { code: 'internal' } })
    expect(logged).toHaveLength(1)
  })

  it('every code a failure can carry is in the closed union', async () => {
    const answers = [
      await routerWith(() => ({})).router.handle('no.such.route', {}),
      await routerWith(() => ({})).router.handle('sessions.get', {}),
      await routerWith(() => {
        throw new Error('x')
      }).router.handle('app.info', {}),
    ]
    for (const a of answers) {
      expect(a.ok).toBe(false)
      if (!a.ok) expect(errorCodeSchema.options).toContain(a.error.code)
    }
  })
})
