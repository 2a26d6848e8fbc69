/** The rules of a server's form: how its schema is read and what an answer must be. */
import { describe, expect, it } from 'vitest'
import {
  checkElicitation,
  elicitationFields,
  initialValues,
  requiredHaveDefaults,
  settleAnswer,
  type ElicitField,
} from '../../src-preload/contract/elicitation'

function fields(properties: Record<string, unknown>, required: string[] = []): ElicitField[] {
  const read = elicitationFields({ type: 'object', properties, required })
  if (!read.ok) throw new Error(read.error)
  return read.fields
}

describe('reading a requested schema', () => {
  it('reads each kind, titled enums (oneOf, enumNames) and defaults (SEP-1034, SEP-1330)', () => {
    const f = fields(
      {
        when: { type: 'string', format: 'date-time', title: 'When' },
        n: { type: 'integer', minimum: 1, maximum: 9, default: 2 },
        pet: { type: 'string', enum: ['p1', 'p2'], enumNames: ['Cats', 'Dogs'], default: 'p2' },
        hero: { type: 'string', oneOf: [{ const: 'h1', title: 'Superman' }] },
        fish: {
          type: 'array',
          items: { anyOf: [{ const: 'f1', title: 'Tuna' }] },
          default: ['f1'],
        },
        plain: { type: 'array', items: { type: 'string', enum: ['a', 'b'] } },
        ok: { type: 'boolean', default: true },
      },
      ['n'],
    )
    expect(f.map((x) => [x.name, x.kind])).toEqual([
      ['when', 'text'],
      ['n', 'integer'],
      ['pet', 'choice'],
      ['hero', 'choice'],
      ['fish', 'multi'],
      ['plain', 'multi'],
      ['ok', 'boolean'],
    ])
    expect(f[0]).toMatchObject({ format: 'date-time', label: 'When' })
    expect(f[2]!.options).toEqual([
      { value: 'p1', label: 'Cats' },
      { value: 'p2', label: 'Dogs' },
    ])
    expect(f[3]!.options).toEqual([{ value: 'h1', label: 'Superman' }])
    expect(initialValues(f)).toEqual({
      when: '',
      n: '2',
      pet: 'p2',
      hero: '',
      fish: ['f1'],
      plain: [],
      ok: true,
    })
    expect(requiredHaveDefaults(f)).toBe(true)
    expect(requiredHaveDefaults(fields({ a: { type: 'string' } }, ['a']))).toBe(false)
  })

  it('refuses a schema that is not a flat form', () => {
    expect(elicitationFields({ type: 'object' }).ok).toBe(false)
    expect(
      elicitationFields({ type: 'object', properties: { a: { type: 'object', properties: {} } } })
        .ok,
    ).toBe(false)
    expect(elicitationFields({ type: 'object', properties: { a: { type: 'array' } } }).ok).toBe(
      false,
    )
  })

  it('never runs a pattern the server sends', () => {
    // a catastrophic pattern: were it run on a backtracking engine, this would not return
    const f = fields({ s: { type: 'string', pattern: '^(a+)+$' } })
    expect(checkElicitation(f, { s: `${'a'.repeat(50)}!` })).toEqual({
      ok: true,
      content: { s: `${'a'.repeat(50)}!` },
    })
  })
})

describe('checking an answer', () => {
  const f = fields(
    {
      email: { type: 'string', format: 'email' },
      site: { type: 'string', format: 'uri' },
      day: { type: 'string', format: 'date' },
      at: { type: 'string', format: 'date-time' },
      name: { type: 'string', minLength: 2, maxLength: 5 },
      n: { type: 'integer', minimum: 1, maximum: 9 },
      x: { type: 'number', minimum: 0.5 },
      pick: { type: 'array', items: { enum: ['a', 'b', 'c'] }, minItems: 1, maxItems: 2 },
    },
    ['n'],
  )

  it('names what is wrong with each field', () => {
    const r = checkElicitation(f, {
      email: 'a@b',
      site: 'example.com',
      day: '2025-02-30',
      at: 'tomorrow',
      name: 'x',
      n: '2.5',
      x: '0.1',
      pick: ['a', 'b', 'c'],
    })
    expect(r).toEqual({
      ok: false,
      errors: {
        email: 'An email address, like name@example.com.',
        site: 'An address, like https://example.com.',
        day: 'A date, like 2025-01-31.',
        at: 'A date and time, like 2025-01-31T09:30Z.',
        name: 'At least 2 characters.',
        n: 'A whole number.',
        x: 'At least 0.5.',
        pick: 'Pick at most 2.',
      },
    })
  })

  it('turns a good answer into typed content, leaving out empty optional fields', () => {
    expect(
      checkElicitation(f, {
        email: 'ada@example.org',
        site: 'https://example.org/x',
        day: '2024-02-29',
        at: '2025-01-31T09:30:00+01:00',
        name: '',
        n: '7',
        x: '',
        pick: [],
      }),
    ).toEqual({
      ok: true,
      content: {
        email: 'ada@example.org',
        site: 'https://example.org/x',
        day: '2024-02-29',
        at: '2025-01-31T09:30:00+01:00',
        n: 7,
      },
    })
  })

  it('settles an accepted answer against the schema; decline and cancel carry no content', () => {
    const schema = { type: 'object', properties: { n: { type: 'integer' } }, required: ['n'] }
    expect(settleAnswer(schema, { action: 'accept', content: { n: 3, other: 'x' } })).toEqual({
      ok: true,
      answer: { action: 'accept', content: { n: 3 } },
    })
    expect(settleAnswer(schema, { action: 'accept', content: {} })).toEqual({
      ok: false,
      error: 'n: Required.',
    })
    expect(settleAnswer(schema, { action: 'decline', content: { n: 3 } })).toEqual({
      ok: true,
      answer: { action: 'decline' },
    })
  })
})
