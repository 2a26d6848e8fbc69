import { describe, expect, it } from 'vitest'
import {
  PART_SIZES,
  splitBlocks,
  updateBlocks,
  type Block,
  type BlockState,
  type PartSizes,
} from '../../src-renderer/src/ui/markdown/blocks'

const types = (blocks: readonly Block[]): string[] => blocks.map((b) => b.type)
const sources = (blocks: readonly Block[]): string[] => blocks.map((b) => b.source)

const DOC = [
  '# Title',
  '',
  'A paragraph with **bold**',
  'on two lines.',
  '',
  '```ts',
  'const a = 1',
  '',
  '',
  'const b = 2',
  '```',
  '',
  '- one',
  '- two',
  '',
  '  still two',
  '- three',
  '',
  '| a | b |',
  '|---|---|',
  '| 1 | 2 |',
  '',
  '> quoted',
  '',
  '[ref]: https://example.com/ref',
  '',
  '[^1]: A footnote.',
  '',
  '---',
  '',
  '1. first',
  '2. second',
  '',
  'The end, see [the ref][ref].',
  '',
].join('\n')

/** Streams `text` in chunks of the given sizes (cycled), returning every state. */
function stream(text: string, sizes: number[]): BlockState[] {
  const states: BlockState[] = []
  let state: BlockState | null = null
  let pos = 0
  let i = 0
  while (pos < text.length) {
    pos = Math.min(text.length, pos + (sizes[i++ % sizes.length] ?? 1))
    state = updateBlocks(state, text.slice(0, pos))
    states.push(state)
  }
  return states
}

describe('splitBlocks', () => {
  it('splits a document into its top-level blocks', () => {
    const blocks = splitBlocks(DOC)
    expect(types(blocks)).toEqual([
      'heading',
      'paragraph',
      'code',
      'list',
      'table',
      'blockquote',
      'def',
      'footnote',
      'hr',
      'list',
      'paragraph',
    ])
    expect(blocks[0]?.source).toBe('# Title')
    expect(blocks[7]?.source).toBe('[^1]: A footnote.')
    expect(blocks[10]?.source).toBe('The end, see [the ref][ref].')
  })

  it('keeps a fence with blank lines in it as one code block, with its language and code', () => {
    const [code] = splitBlocks('```ts title="x.ts"\nconst a = 1\n\n\nconst b = 2\n```\n')
    expect(code?.type).toBe('code')
    expect(code?.lang).toBe('ts')
    expect(code?.code).toBe('const a = 1\n\n\nconst b = 2')
    expect(code?.source).toBe('```ts title="x.ts"\nconst a = 1\n\n\nconst b = 2\n```')
  })

  it('keeps a loose list (blank lines between items, continuation paragraphs) as one block', () => {
    const blocks = splitBlocks('- a\n\n- b\n\n  more of b\n\n- c\n\nafter')
    expect(types(blocks)).toEqual(['list', 'paragraph'])
    expect(blocks[0]?.source).toBe('- a\n\n- b\n\n  more of b\n\n- c')
  })

  it('keeps a table as one block', () => {
    const blocks = splitBlocks('intro\n\n| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |\n\nafter')
    expect(types(blocks)).toEqual(['paragraph', 'table', 'paragraph'])
    expect(blocks[1]?.source).toBe('| a | b |\n|:--|--:|\n| 1 | 2 |\n| 3 | 4 |')
  })

  it('takes a fence that is still open as a code block running to the end', () => {
    const blocks = splitBlocks('text\n\n```py\nprint(1)\n\nprint(2)\n')
    expect(types(blocks)).toEqual(['paragraph', 'code'])
    expect(blocks[1]?.lang).toBe('py')
    expect(blocks[1]?.code).toBe('print(1)\n\nprint(2)')
  })

  it('keeps the blocks before a spot where marked rewrites the source, and the rest whole', () => {
    // marked gives a bare list marker `- ` the raw `-\n`, which is not in the text
    const blocks = splitBlocks('x\n\n- ')
    expect(types(blocks)).toEqual(['paragraph', 'markdown'])
    expect(sources(blocks)).toEqual(['x', '- '])
  })

  it('normalizes CRLF line endings', () => {
    expect(sources(splitBlocks('a\r\nb\r\n\r\nc'))).toEqual(['a\nb', 'c'])
  })

  it('gives nothing for empty or blank text', () => {
    expect(splitBlocks('')).toEqual([])
    expect(splitBlocks('\n\n  \n')).toEqual([])
  })

  it('tells link definitions from footnote definitions', () => {
    const state = updateBlocks(
      null,
      '[a]: https://a.example\n\n[^n]: note\n\n[b]: https://b.example',
    )
    expect(types(state.blocks)).toEqual(['def', 'footnote', 'def'])
    expect(state.defs).toBe('[a]: https://a.example\n[b]: https://b.example')
  })
})

describe('updateBlocks while streaming', () => {
  it('gives the same blocks as lexing the whole text, whatever the chunking', () => {
    for (const sizes of [[1], [2, 7, 1], [13], [5, 40, 3], [64]]) {
      const states = stream(DOC, sizes)
      const last = states[states.length - 1] as BlockState
      expect(sources(last.blocks)).toEqual(sources(splitBlocks(DOC)))
      for (const s of states) expect(sources(s.blocks)).toEqual(sources(splitBlocks(s.text)))
    }
  })

  it('streams nested structures (code in lists and quotes, HTML, footnotes) like a whole lex', () => {
    const doc = [
      '1. Install:',
      '',
      '   ```bash',
      '   npm i',
      '',
      '   npm test',
      '   ```',
      '2. Then',
      '   > quote with `code`',
      '   > ```',
      '   > x',
      '   > ```',
      '',
      '<div onclick="x()">',
      'html *block*',
      '</div>',
      '',
      'Text[^a] and more[^b].',
      '',
      '[^a]: First note.',
      '[^b]: Second note',
      '    continued.',
      '',
      '~~~',
      'tilde fence',
      '~~~',
      '',
    ].join('\n')
    for (const sizes of [[1], [4, 9]]) {
      const states = stream(doc, sizes)
      for (const s of states) expect(sources(s.blocks)).toEqual(sources(splitBlocks(s.text)))
    }
    expect(types(splitBlocks(doc))).toEqual(['list', 'html', 'paragraph', 'footnote', 'code'])
  })

  it('gives the same blocks as a whole lex for every prefix of 400 random documents', () => {
    forRandomPrefixes(11, 400, (state, prefix) =>
      expect(sources(state.blocks), JSON.stringify(prefix)).toEqual(sources(splitBlocks(prefix))),
    )
  })

  it('and the same parts, when code, tables and lists are cut every two lines, rows or items', () => {
    const small = { codeLines: 2, tableRows: 2 }
    const shape = (blocks: readonly Block[]): unknown[] =>
      blocks.map((b) => [b.type, b.source, b.code, b.parts, b.list])
    let carried = 0
    forRandomPrefixes(
      23,
      400,
      (state, prefix) => {
        if (state.carry) carried++
        expect(shape(state.blocks), JSON.stringify(prefix)).toEqual(
          shape(splitBlocks(prefix, small)),
        )
      },
      small,
    )
    // the documents did grow blocks in parts
    expect(carried).toBeGreaterThan(1000)
  })
})

/**
 * Random documents of the pieces below, streamed in steps of 1–3 characters: `check` gets
 * the state of each prefix.
 */
function forRandomPrefixes(
  start: number,
  docs: number,
  check: (state: BlockState, prefix: string) => void,
  sizes?: PartSizes,
): void {
  {
    const parts = [
      '# Head',
      'para text here',
      'para\nline two',
      '- a\n- b',
      '1. one\n2. two',
      '2. y',
      '10. ten',
      '1. x\n\n   ```js\n   code\n   ```',
      '```ts\nconst x = 1\n\nlet y\n```',
      '~~~\ntilde\n~~~',
      '    indented code',
      '> quote\n> more',
      '> ```\n> q\n> ```',
      '| a | b |\n|---|---|\n| 1 | 2 |',
      '---',
      '***',
      'Title\n===',
      'Sub\n---',
      '<div>\nhtml\n</div>',
      '[ref]: https://x.y',
      '[^1]: note here',
      'text [a][ref] [^1]',
      '- [ ] task\n- [x] done',
      '* star\n* list',
      '+ plus',
      '- a\n\n  cont\n\n- b',
      '1) paren',
      '  - nested\n    - deeper',
      '<!-- c -->',
      'a  \nb',
      '#',
      '-',
      '--',
      '2',
      '```js x`y`',
      '- a\n#x',
      '> a\n-',
      '```py\na = 1\nb = 2\nc = 3\n\nd = 4\n```',
      '```\nopen fence\nline\nline\nline',
      '| h | i |\n|:-|-:|\n| 1 | 2 |\n| 3 | 4 |\n| 5 |\n| 6 | 7 | 8 |',
      '- one\n- two\n  - nested\n- [x] three\n- four',
      '3. c\n4. d\n5. e',
      '- a\n- b\n- - -',
      '* x\n* y\n*',
    ]
    let seed = start
    const rnd = (n: number): number => {
      seed = (seed * 1103515245 + 12345) & 0x7fffffff
      return seed % n
    }
    for (let doc = 0; doc < docs; doc++) {
      let text = ''
      for (let i = 2 + rnd(5); i > 0; i--) {
        text += (parts[rnd(parts.length)] as string) + (['\n\n', '\n', '\n\n\n'][rnd(3)] as string)
      }
      let state: BlockState | null = null
      for (let pos = 1; pos <= text.length; pos += 1 + rnd(3)) {
        const prefix = text.slice(0, pos)
        state = updateBlocks(state, prefix, sizes)
        check(state, prefix)
      }
    }
  }
}

describe('updateBlocks while streaming (more)', () => {
  it('re-lexes only from the start of the last block', () => {
    const states = stream(DOC, [3])
    const total = states.reduce((n, s) => n + s.lexed, 0)
    const naive = states.reduce((n, s) => n + s.text.length, 0)
    expect(total).toBeLessThan(naive / 3)
    const last = states[states.length - 1] as BlockState
    // the rest starts at the last block: everything before is finished
    expect(last.text.slice(last.restStart)).toBe('The end, see [the ref][ref].\n')
    expect(last.finished).toBe(last.blocks.length - 1)
  })

  it('reuses the very same objects for finished blocks', () => {
    const a = updateBlocks(null, 'one\n\ntwo\n\nthe third paragraph')
    const b = updateBlocks(a, 'one\n\ntwo\n\nthe third paragraph\n\nand then a fourth one')
    expect(b.blocks[0]).toBe(a.blocks[0])
    expect(b.blocks[1]).toBe(a.blocks[1])
    expect(b.lexed).toBe('the third paragraph\n\nand then a fourth one'.length)
  })

  it('told the text grows, gives the blocks of the whole text, lexing only the new end', () => {
    let state: BlockState | null = null
    let lexed = 0
    for (let pos = 7; pos < DOC.length + 7; pos += 7) {
      const text = DOC.slice(0, pos)
      state = updateBlocks(state, text, PART_SIZES, true)
      lexed += state.lexed
      expect(state.blocks).toEqual(splitBlocks(text))
    }
    expect(lexed).toBeLessThan((DOC.length * DOC.length) / 7 / 2 / 3)
  })

  it('told the text grows, still starts afresh when its ends say it was replaced', () => {
    const a = updateBlocks(null, 'one\n\ntwo\n\nthe third paragraph')
    const longer = updateBlocks(a, 'ONE\n\ntwo\n\nthe third paragraph and more', PART_SIZES, true)
    expect(longer.blocks.map((b) => b.source)).toEqual([
      'ONE',
      'two',
      'the third paragraph and more',
    ])
    const shorter = updateBlocks(a, 'one\n\ntwo', PART_SIZES, true)
    expect(shorter.blocks.map((b) => b.source)).toEqual(['one', 'two'])
    const end = updateBlocks(a, 'one\n\ntwo\n\nthe third pAragraph, longer', PART_SIZES, true)
    expect(end.blocks.map((b) => b.source)).toEqual(['one', 'two', 'the third pAragraph, longer'])
  })

  it('keeps a growing open fence as the last, unfinished block', () => {
    let s = updateBlocks(null, 'Look:\n\n```js\nlet a')
    s = updateBlocks(s, 'Look:\n\n```js\nlet a = 1\n\nlet b')
    expect(types(s.blocks)).toEqual(['paragraph', 'code'])
    expect(s.finished).toBe(1)
    expect(s.blocks[1]?.code).toBe('let a = 1\n\nlet b')
    s = updateBlocks(s, 'Look:\n\n```js\nlet a = 1\n\nlet b = 2\n```\n\nDone, that is all.')
    expect(types(s.blocks)).toEqual(['paragraph', 'code', 'paragraph'])
    expect(s.finished).toBe(2)
    expect(s.blocks[1]?.code).toBe('let a = 1\n\nlet b = 2')
  })

  it('a paragraph that turns into a heading or a table while it is the last block', () => {
    let s = updateBlocks(null, 'intro\n\nTitle')
    s = updateBlocks(s, 'intro\n\nTitle\n===')
    expect(types(s.blocks)).toEqual(['paragraph', 'heading'])
    s = updateBlocks(s, 'intro\n\nTitle\n===\n\n| a |\n|---|')
    expect(types(s.blocks)).toEqual(['paragraph', 'heading', 'table'])
  })

  it('keeps the block before unfinished while the last line may still join it ("2" → "2.")', () => {
    const list = '1. one\n\n   ```sh\n   ls\n   ```\n\n'
    let s = updateBlocks(null, `${list}2`)
    expect(types(s.blocks)).toEqual(['list', 'paragraph'])
    expect(s.finished).toBe(0)
    s = updateBlocks(s, `${list}2. two`)
    expect(types(s.blocks)).toEqual(['list'])
    expect(s.blocks[0]?.source).toBe(`${list}2. two`)
  })

  it('starts over when the text is replaced by one that does not extend it', () => {
    const a = updateBlocks(null, 'first answer\n\nwith two blocks\n\nand three')
    const b = updateBlocks(a, 'A different answer\n\n```sh\nls\n```')
    expect(sources(b.blocks)).toEqual(['A different answer', '```sh\nls\n```'])
    expect(b.lexed).toBe(b.text.length)
    // a shorter text (an edit that removed the end) starts over too
    const c = updateBlocks(a, 'first answer\n\nwith')
    expect(sources(c.blocks)).toEqual(['first answer', 'with'])
  })

  it('returns the same state for the same text', () => {
    const a = updateBlocks(null, 'x\n\ny')
    expect(updateBlocks(a, 'x\n\ny')).toBe(a)
  })
})
