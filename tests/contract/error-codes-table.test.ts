/**
 * docs/architecture.md has a row for every error code (when it happens, what the user sees,
 * what to do) and none for a code the contract does not have: a code added to
 * `errorCodeSchema` needs its row.
 */
import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { errorCodeSchema } from '../../src-preload/contract/errors'

const doc = readFileSync('docs/architecture.md', 'utf8')
const table = doc.slice(doc.indexOf('| Code '))
const rows = [...table.matchAll(/^\| `([a-z_]+)` +\|(.*)\|$/gm)].map((m) => ({
  code: m[1]!,
  cells: m[2]!.split('|').map((c) => c.trim()),
}))

describe('the table of error codes', () => {
  it('has one row per code of the contract, each saying when, what is seen and what to do', () => {
    expect(rows.map((r) => r.code).sort()).toEqual([...errorCodeSchema.options].sort())
    for (const row of rows) {
      expect(row.cells, row.code).toHaveLength(3)
      for (const cell of row.cells) expect(cell, row.code).toMatch(/\w/)
    }
  })
})
