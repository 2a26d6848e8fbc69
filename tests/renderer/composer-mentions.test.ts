/** The composer's `@` word and `/server:prompt` commands: recognized, filtered, completed. */
import { describe, expect, it } from 'vitest'
import {
  filterChoices,
  mentionAt,
  withoutMention,
} from '../../src-renderer/src/features/composer/mentions'
import {
  completeWithPrompts,
  parsePromptCommand,
} from '../../src-renderer/src/features/composer/prompt-commands'
import type { McpPrompt } from '../../src-preload/contract/resources-and-prompts'

const doc = { server: 'everything', uri: 'demo://doc/readme.md', name: 'readme.md' }
const tpl = {
  server: 'everything',
  uriTemplate: 'demo://text/{id}',
  name: 'Dynamic text',
  variables: ['id'],
}
const prompt = (server: string, name: string): McpPrompt => ({ server, name, arguments: [] })

describe('the @ mention', () => {
  it('starts at an @ at the start or after a space, up to the caret', () => {
    expect(mentionAt('@rea', 4)).toEqual({ start: 0, query: 'rea' })
    expect(mentionAt('see @rea', 8)).toEqual({ start: 4, query: 'rea' })
    expect(mentionAt('mail a@b.c', 10)).toBeNull()
    expect(mentionAt('see @rea now', 12)).toBeNull()
  })

  it('is taken out of the text when a resource is picked', () => {
    expect(withoutMention('see @rea now', { start: 4, query: 'rea' }, 8)).toBe('see  now')
  })

  it('filters resources and templates by every word typed', () => {
    expect(filterChoices([doc], [tpl], 'read').map((c) => c.kind)).toEqual(['resource'])
    expect(filterChoices([doc], [tpl], 'dyn text').map((c) => c.kind)).toEqual(['template'])
    expect(filterChoices([doc], [tpl], '')).toHaveLength(2)
    expect(filterChoices([doc], [tpl], 'nothing')).toEqual([])
  })
})

describe('prompt commands', () => {
  it('/server:prompt alone on its line names a prompt', () => {
    expect(parsePromptCommand('/everything:args-prompt')).toEqual({
      server: 'everything',
      name: 'args-prompt',
    })
    expect(parsePromptCommand('/everything:args-prompt and more')).toBeNull()
    expect(parsePromptCommand('/help')).toBeNull()
  })

  it('Tab completes prompts after the built-in commands', () => {
    const prompts = [prompt('everything', 'args-prompt'), prompt('everything', 'simple-prompt')]
    expect(completeWithPrompts('/everything:a', [], prompts)).toEqual({
      text: '/everything:args-prompt',
      candidates: [],
    })
    expect(completeWithPrompts('/e', [], prompts)).toEqual({
      text: '/everything:',
      candidates: ['/everything:args-prompt', '/everything:simple-prompt'],
    })
    expect(completeWithPrompts('/he', [], prompts)).toEqual({ text: '/help', candidates: [] })
    expect(completeWithPrompts('/model g', ['gpt-x'], prompts)).toEqual({
      text: '/model gpt-x',
      candidates: [],
    })
  })
})
