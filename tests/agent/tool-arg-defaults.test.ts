/**
 * A call the server would accept is never refused by Cairn: a required property with a
 * default may be left out (as Playwright's server accepts `browser_take_screenshot` without
 * `scale`), while malformed JSON and wrong types are still refused before anyone is asked.
 */
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { checkToolArguments } from '../../src-main/core/agent/tool-args'
import { createHarness, ofType, type Harness } from '../support/agent-harness'
import { textReply, toolCallsReply } from '../support/openai-server'

/** the shape of a schema as Playwright's MCP server sends it */
const SCREENSHOT = {
  $schema: 'http://json-schema.org/draft-07/schema#',
  type: 'object',
  properties: {
    type: { type: 'string', enum: ['png', 'jpeg'], default: 'png' },
    scale: { type: 'string', enum: ['css', 'device'], default: 'css' },
    filename: { type: 'string' },
    options: {
      type: 'object',
      properties: {
        level: { type: 'number', default: 1 },
        static: { type: 'boolean', default: false },
      },
      required: ['level', 'static'],
    },
  },
  required: ['type', 'scale', 'filename'],
  additionalProperties: false,
}

describe('schema defaults in argument checks', () => {
  it('accepts a call that leaves out required properties with defaults, at any depth', () => {
    const check = checkToolArguments('{"filename":"a.png","options":{}}', SCREENSHOT)
    expect(check).toEqual({ ok: true, value: { filename: 'a.png', options: {} } })
  })

  it('still refuses a missing required property without a default', () => {
    const check = checkToolArguments('{"scale":"css"}', SCREENSHOT)
    expect(check.ok).toBe(false)
    expect(!check.ok && check.problem).toMatch(/filename/)
  })

  it('still refuses wrong types and values, also for properties with defaults', () => {
    const wrongType = checkToolArguments('{"filename":"a","scale":3}', SCREENSHOT)
    expect(!wrongType.ok && wrongType.problem).toMatch(/\/scale/)
    const nested = checkToolArguments('{"filename":"a","options":{"level":"x"}}', SCREENSHOT)
    expect(!nested.ok && nested.problem).toMatch(/\/options\/level/)
    const badEnum = checkToolArguments('{"filename":"a","type":"gif"}', SCREENSHOT)
    expect(badEnum.ok).toBe(false)
  })

  it('still refuses malformed JSON and non-objects', () => {
    expect(checkToolArguments('{"filename":', SCREENSHOT).ok).toBe(false)
    expect(checkToolArguments('[1]', SCREENSHOT).ok).toBe(false)
  })

  it('keeps defaults optional inside anyOf branches and $defs', () => {
    const schema = {
      type: 'object',
      properties: { target: { $ref: '#/$defs/target' } },
      required: ['target'],
      $defs: {
        target: {
          anyOf: [
            {
              type: 'object',
              properties: { ref: { type: 'string' }, frame: { type: 'integer', default: 0 } },
              required: ['ref', 'frame'],
            },
          ],
        },
      },
    }
    expect(checkToolArguments('{"target":{"ref":"e1"}}', schema).ok).toBe(true)
    expect(checkToolArguments('{"target":{"frame":1}}', schema).ok).toBe(false)
  })
})

describe('a turn with a defaulted required property left out', () => {
  let h: Harness
  beforeEach(async () => {
    h = await createHarness()
  })
  afterEach(async () => {
    await h.close()
  })

  it('calls the tool with the arguments the model sent', async () => {
    h.tools.add(
      {
        name: 'screenshot',
        server: 'test',
        tool: 'screenshot',
        description: 'Takes a screenshot.',
        inputSchema: SCREENSHOT,
        annotations: {},
        trusted: false,
        fingerprint: 'test:screenshot:v1',
      },
      async () => ({ content: [{ type: 'text', text: 'saved' }] }),
    )
    h.server.enqueue(
      toolCallsReply([{ id: 'c1', name: 'screenshot', arguments: '{"filename":"a.png"}' }]),
      textReply('Done.'),
    )
    const { outcome, events } = await h.turn('take one')
    expect(outcome.reason).toBe('completed')
    expect(h.tools.calls.map((c) => [c.name, c.args])).toEqual([
      ['screenshot', { filename: 'a.png' }],
    ])
    expect(ofType(events, 'tool_result')[0]).toMatchObject({ ok: true, content: 'saved' })
  })
})
