/**
 * Route handlers live in the handler file of their route's domain: `sessions.*` in
 * `handlers/sessions.ts` or the folder `handlers/sessions/`, `mcp.*` in `handlers/mcp/`, and
 * so on. Every route of the contract is served from its domain's file, and no file serves
 * another domain's route.
 */
import { readdirSync, readFileSync } from 'node:fs'
import { basename, join, relative } from 'node:path'
import { describe, expect, it } from 'vitest'
import { routeInputs } from '../../src-preload/contract/routes'

const HANDLERS = join(__dirname, '../../src-main/services/handlers')

/** every handler file, with the domain its path names (a file's name or its folder's) */
function handlerFiles(): { file: string; domain: string }[] {
  return readdirSync(HANDLERS, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? readdirSync(join(HANDLERS, e.name)).map((f) => ({
          file: join(HANDLERS, e.name, f),
          domain: e.name,
        }))
      : [{ file: join(HANDLERS, e.name), domain: basename(e.name, '.ts') }],
  )
}

/** the routes a file implements: its `'domain.verb': …` keys */
function routesIn(file: string): string[] {
  return [...readFileSync(file, 'utf8').matchAll(/^\s*'([a-z]+\.[a-zA-Z]+)':/gm)].map((m) => m[1]!)
}

describe('handler files', () => {
  it('serve only the routes of their domain, and every route is served once', () => {
    const served = new Map<string, string>()
    const strays: string[] = []
    for (const { file, domain } of handlerFiles()) {
      for (const route of routesIn(file)) {
        if (route.split('.')[0] !== domain) strays.push(`${relative(HANDLERS, file)}: ${route}`)
        expect(served.has(route), `${route} is served twice`).toBe(false)
        served.set(route, file)
      }
    }
    expect(strays).toEqual([])
    expect([...served.keys()].sort()).toEqual(Object.keys(routeInputs).sort())
  })
})
