import { describe, expect, it } from 'vitest'
import { complete, parseCommand } from '../../src-renderer/src/features/composer/commands'

describe('slash commands', () => {
  it('parses the four commands; anything else that looks like one is unknown', () => {
    expect(parseCommand('/new')).toEqual({ kind: 'new' })
    expect(parseCommand('  /STOP ')).toEqual({ kind: 'stop' })
    expect(parseCommand('/help')).toEqual({ kind: 'help' })
    expect(parseCommand('/compact')).toEqual({ kind: 'compact' })
    expect(parseCommand('/model  qwen3:8b ')).toEqual({ kind: 'model', name: 'qwen3:8b' })
    expect(parseCommand('/model')).toEqual({ kind: 'model', name: null })
    expect(parseCommand('/frobnicate now')).toEqual({ kind: 'unknown', name: 'frobnicate' })
  })

  it('a message that merely starts with a slash is a message', () => {
    expect(parseCommand('/etc/hosts is missing a line')).toBeNull()
    expect(parseCommand('/model a\nand more lines')).toBeNull()
    expect(parseCommand('hello /new')).toBeNull()
    expect(parseCommand('/ not a command')).toBeNull()
  })

  it('Tab completes a command, then a model name from the provider’s list', () => {
    const models = ['qwen3:8b', 'qwen3:32b', 'llama3.1']
    expect(complete('/mo', models)).toEqual({ text: '/model ', candidates: [] })
    expect(complete('/', models)?.candidates).toEqual(['/new', '/model', '/stop', '/compact', '/help'])
    expect(complete('/model ll', models)).toEqual({ text: '/model llama3.1', candidates: [] })
    expect(complete('/model qw', models)).toEqual({
      text: '/model qwen3:',
      candidates: ['qwen3:8b', 'qwen3:32b'],
    })
    expect(complete('/model 32', models)).toEqual({ text: '/model qwen3:32b', candidates: [] })
    expect(complete('/model zzz', models)).toBeNull()
    expect(complete('/x', models)).toBeNull()
    expect(complete('hello', models)).toBeNull()
  })
})
