/**
 * The test bridges' check (`tests/support/error-codes.ts`) refuses what the contract does
 * not allow, so a handler that answered a code outside the list, or without the details
 * its code promises, fails whichever test met it.
 */
import { describe, expect, it } from 'vitest'
import { checkedResult, errorInfoProblem } from '../support/error-codes'

describe('the bridges’ check of every failure', () => {
  it('lets the contract’s shapes through', () => {
    expect(errorInfoProblem({ code: 'not_found', message: 'There is no session "x".' })).toBeNull()
    expect(
      errorInfoProblem({ code: 'bad_request', message: 'No.', details: { fields: { a: 'b' } } }),
    ).toBeNull()
    expect(
      errorInfoProblem({
        code: 'internal',
        message: 'x (error 0a1b2c3d)',
        details: { id: '0a1b2c3d' },
      }),
    ).toBeNull()
    const ok = { ok: true, data: 1 }
    expect(checkedResult('app.info', ok)).toBe(ok)
  })

  it('refuses a code outside the list, a missing message, details that are not what the code promises', () => {
    expect(errorInfoProblem({ code: 'provider', message: 'x' })).toMatch(/not in the contract/)
    expect(errorInfoProblem({ code: 'not_found', message: '' })).toMatch(/no message/)
    expect(
      errorInfoProblem({ code: 'bad_request', message: 'x', details: { fields: { a: 1 } } }),
    ).toMatch(/fields/)
    expect(errorInfoProblem({ code: 'internal', message: 'x', details: { id: 'abc' } })).toMatch(
      /8 hex/,
    )
    expect(() =>
      checkedResult('sessions.get', { ok: false, error: { code: 'oops', message: 'x' } }),
    ).toThrow(/sessions\.get: the code "oops"/)
  })
})
