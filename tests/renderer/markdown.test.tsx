// @vitest-environment jsdom
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { cleanup, render, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { LinkGuardProvider, Markdown, __markdownStats } from '../../src-renderer/src/ui/markdown'
import { splitBlocks } from '../../src-renderer/src/ui/markdown/blocks'

afterEach(() => {
  cleanup()
  vi.restoreAllMocks()
})

function renderMd(text: string, openExternal?: (url: string) => void) {
  return render(
    <LinkGuardProvider openExternal={openExternal}>
      <Markdown text={text} />
    </LinkGuardProvider>,
  )
}

function stubClipboard(writeText: (text: string) => Promise<void>) {
  const clipboard = { writeText: vi.fn(writeText) }
  Object.defineProperty(navigator, 'clipboard', { value: clipboard, configurable: true })
  return clipboard
}

describe('GitHub-flavored Markdown', () => {
  it('renders a table as a table, in a horizontally scrollable wrapper', () => {
    const { container } = renderMd(
      '| Name | Size |\n|:-----|-----:|\n| a.txt | 12 |\n| b.txt | 7 |',
    )
    const table = screen.getByRole('table')
    expect(within(table).getAllByRole('row')).toHaveLength(3)
    expect(within(table).getByRole('columnheader', { name: 'Size' })).toBeTruthy()
    expect(within(table).getByRole('cell', { name: 'a.txt' })).toBeTruthy()
    expect(table.parentElement?.className).toBe('md-table-wrap')
    expect(container.querySelectorAll('.md-table-wrap')).toHaveLength(1)
  })

  it('renders a task list with disabled checkboxes', () => {
    renderMd('- [x] write tests\n- [ ] ship it')
    const boxes = screen.getAllByRole('checkbox') as HTMLInputElement[]
    expect(boxes).toHaveLength(2)
    expect(boxes.map((b) => b.checked)).toEqual([true, false])
    expect(boxes.every((b) => b.disabled)).toBe(true)
    expect(screen.getByText('write tests')).toBeTruthy()
  })

  it('renders strikethrough, emphasis, headings, lists, quotes and rules', () => {
    const { container } = renderMd(
      '## Plan\n\nThis is ~~wrong~~ **right** and *fine*.\n\n1. one\n2. two\n\n> quoted\n\n---',
    )
    expect(container.querySelector('del')?.textContent).toBe('wrong')
    expect(container.querySelector('strong')?.textContent).toBe('right')
    expect(screen.getByRole('heading', { level: 2, name: 'Plan' })).toBeTruthy()
    expect(container.querySelectorAll('ol > li')).toHaveLength(2)
    expect(container.querySelector('blockquote')?.textContent?.trim()).toBe('quoted')
    expect(container.querySelector('hr')).not.toBeNull()
  })

  it('turns a bare https address into a (guarded) link', () => {
    renderMd('See https://example.com/docs for more.')
    const link = screen.getByRole('link', { name: 'https://example.com/docs' })
    expect(link.getAttribute('href')).toBe('https://example.com/docs')
  })

  it('uses reference definitions from another block', () => {
    renderMd('Read [the guide][g].\n\n[g]: https://example.com/guide')
    expect(screen.getByRole('link', { name: 'the guide' }).getAttribute('href')).toBe(
      'https://example.com/guide',
    )
  })
})

describe('code', () => {
  it('keeps inline code inline', () => {
    const { container } = renderMd('Run `npm test` now.')
    const code = container.querySelector('code')
    expect(code?.textContent).toBe('npm test')
    expect(code?.closest('pre')).toBeNull()
    expect(code?.closest('p')).not.toBeNull()
    expect(screen.queryByRole('button', { name: 'Copy code' })).toBeNull()
  })

  it('shows a code block with its language, plain where there is no Worker (jsdom)', () => {
    const { container } = renderMd('```ts\nconst a: number = 1\n\nexport { a }\n```')
    expect(container.querySelector('.md-code-lang')?.textContent).toBe('ts')
    expect(container.querySelector('pre')?.textContent).toBe('const a: number = 1\n\nexport { a }')
    expect(container.querySelector('.md-tok')).toBeNull()
  })

  it('labels a block without a language "text" and never highlights it', () => {
    const { container } = renderMd('```\nplain words\n```')
    expect(container.querySelector('.md-code-lang')?.textContent).toBe('text')
    expect(container.querySelector('pre')?.textContent).toBe('plain words')
  })

  it('copies the code with the "Copy code" button', async () => {
    const user = userEvent.setup()
    const clipboard = stubClipboard(() => Promise.resolve())
    renderMd('```py\nprint("hi")\nprint("there")\n```')
    const button = screen.getByRole('button', { name: 'Copy code' })
    expect(button.textContent).toBe('Copy')
    await user.click(button)
    expect(clipboard.writeText).toHaveBeenCalledTimes(1)
    expect(clipboard.writeText).toHaveBeenCalledWith('print("hi")\nprint("there")')
    expect(button.textContent).toBe('Copied')
    expect(screen.getByRole('status').textContent).toBe('Copied')
  })

  it('says "Copy failed" when the clipboard refuses, then goes back to "Copy"', async () => {
    const user = userEvent.setup()
    stubClipboard(() => Promise.reject(new DOMException('denied', 'NotAllowedError')))
    renderMd('```\nx\n```')
    const button = screen.getByRole('button', { name: 'Copy code' })
    await user.click(button)
    await waitFor(() => expect(button.textContent).toBe('Copy failed'))
    expect(screen.getByRole('status').textContent).toBe('Copy failed')
    await waitFor(() => expect(button.textContent).toBe('Copy'), { timeout: 2_500 })
  })

  it('shows a streaming code block at the end as it grows', () => {
    const head = 'Here is the script:\n\n```bash\n'
    const { container, rerender } = render(<Markdown text={`${head}echo one`} streaming />)
    expect(container.querySelector('pre')?.textContent).toBe('echo one')
    rerender(<Markdown text={`${head}echo one\necho two\n`} streaming />)
    expect(container.querySelector('pre')?.textContent).toBe('echo one\necho two')
    rerender(<Markdown text={`${head}echo one\necho two\n\necho three`} streaming />)
    expect(container.querySelector('pre')?.textContent).toBe('echo one\necho two\n\necho three')
    rerender(
      <Markdown text={`${head}echo one\necho two\n\necho three\n\`\`\``} streaming={false} />,
    )
    expect(container.querySelector('pre')?.textContent).toBe('echo one\necho two\n\necho three')
    expect(container.querySelectorAll('pre')).toHaveLength(1)
  })
})

describe('links', () => {
  it('asks before opening an https link, showing the full address; Esc cancels', async () => {
    const user = userEvent.setup()
    const openExternal = vi.fn()
    const url = 'https://example.com/a/very/long/path?with=query&and=more#fragment'
    renderMd(`Read [the docs](${url}).`, openExternal)
    await user.click(screen.getByRole('link', { name: 'the docs' }))
    const dialog = screen.getByRole('dialog', { name: 'Open link?' })
    const address = within(dialog).getByTestId('md-link-url')
    expect(address.textContent).toBe(url)
    expect(address.tagName).toBe('CODE')
    expect(document.activeElement).toBe(within(dialog).getByRole('button', { name: 'Cancel' }))
    await user.keyboard('{Escape}')
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(openExternal).not.toHaveBeenCalled()
  })

  it('"Cancel" closes without opening; "Open" opens once', async () => {
    const user = userEvent.setup()
    const openExternal = vi.fn()
    renderMd('[site](https://example.com/x)', openExternal)
    const link = screen.getByRole('link', { name: 'site' })
    await user.click(link)
    await user.click(screen.getByRole('button', { name: 'Cancel' }))
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(openExternal).not.toHaveBeenCalled()
    await user.click(link)
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(openExternal).toHaveBeenCalledTimes(1)
    expect(openExternal).toHaveBeenCalledWith('https://example.com/x')
    expect(screen.queryByRole('dialog')).toBeNull()
  })

  it('opens a mailto: link after confirmation too', async () => {
    const user = userEvent.setup()
    const openExternal = vi.fn()
    renderMd('Write to [support](mailto:help@example.com).', openExternal)
    await user.click(screen.getByRole('link', { name: 'support' }))
    expect(screen.getByTestId('md-link-url').textContent).toBe('mailto:help@example.com')
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(openExternal).toHaveBeenCalledWith('mailto:help@example.com')
  })

  it('opens with window.open(url, "_blank", "noopener,noreferrer") by default', async () => {
    const user = userEvent.setup()
    const open = vi.spyOn(window, 'open').mockReturnValue(null)
    render(<Markdown text="[x](https://example.com/)" />)
    await user.click(screen.getByRole('link', { name: 'x' }))
    await user.click(screen.getByRole('button', { name: 'Open' }))
    expect(open).toHaveBeenCalledWith('https://example.com/', '_blank', 'noopener,noreferrer')
  })

  it('shows the address as the parser reads it (an IDN host in punycode)', async () => {
    const user = userEvent.setup()
    renderMd('[bank](https://exаmple.com/login)') // Cyrillic "а"
    await user.click(screen.getByRole('link', { name: 'bank' }))
    expect(screen.getByTestId('md-link-url').textContent).toBe('https://xn--exmple-4nf.com/login')
  })

  it.each([
    ['javascript:', '[click me](javascript:alert(1))', 'javascript:alert(1)'],
    ['http:', '[plain http](http://example.com/)', 'http://example.com/'],
    ['file:', '[a file](file:///etc/passwd)', 'file:///etc/passwd'],
    // (the parser percent-encodes the < and >)
    ['data:', '[data](data:text/html,<script>alert(1)</script>)', 'data:text/html,%3Cscript%3E'],
    ['relative', '[relative](../secrets.txt)', '../secrets.txt'],
    ['vbscript:', '[vb](vbscript:msgbox)', 'vbscript:msgbox'],
  ])('renders a %s link as inert text with its address', async (_name, md, address) => {
    const user = userEvent.setup()
    const openExternal = vi.fn()
    const { container } = renderMd(md, openExternal)
    expect(screen.queryByRole('link')).toBeNull()
    expect(container.querySelector('a')).toBeNull()
    expect(container.querySelector('[href]')).toBeNull()
    const inert = container.querySelector('.md-link-inert') as HTMLElement
    expect(inert.textContent).toContain(`(${address}`)
    await user.click(inert)
    expect(screen.queryByRole('dialog')).toBeNull()
    expect(openExternal).not.toHaveBeenCalled()
  })

  it('renders a www. autolink (http:) as inert text, shown once', () => {
    const { container } = renderMd('Visit www.example.com today')
    expect(screen.queryByRole('link')).toBeNull()
    expect(container.textContent).toBe('Visit www.example.com today')
  })
})

describe('untrusted content', () => {
  it('never loads an image: shows its alt text and address instead', () => {
    const { container } = renderMd('![a tracking pixel](https://evil.example/p.png?u=1)')
    expect(container.querySelector('img')).toBeNull()
    expect(screen.queryByRole('img')).toBeNull()
    const span = container.querySelector('.md-img') as HTMLElement
    expect(span.textContent).toBe('🖼 a tracking pixel — https://evil.example/p.png?u=1')
  })

  it('keeps an image inside a link inert too', () => {
    const { container } = renderMd('[![logo](https://x.example/l.png)](https://x.example/)')
    expect(container.querySelector('img')).toBeNull()
    expect(screen.getByRole('link').textContent).toContain('logo')
  })

  it('shows raw HTML as text and creates none of its elements', () => {
    const { container } = renderMd(
      'Hi <img src=x onerror="alert(1)"> there <b>bold?</b>\n\n<script>alert(2)</script>\n\n<iframe src="https://evil.example"></iframe>',
    )
    expect(container.querySelector('img')).toBeNull()
    expect(container.querySelector('script')).toBeNull()
    expect(container.querySelector('iframe')).toBeNull()
    expect(container.querySelector('b')).toBeNull()
    expect(container.querySelector('[onerror]')).toBeNull()
    expect(container.textContent).toContain('<img src=x onerror="alert(1)">')
    expect(container.textContent).toContain('<script>alert(2)</script>')
    expect(container.textContent).toContain('<iframe src="https://evil.example"></iframe>')
  })
})

describe('streaming', () => {
  const DOC = [
    '# Streaming answer',
    '',
    'The first paragraph explains **what** happens, with a [link](https://example.com/a).',
    '',
    '- item one',
    '- item two with `code`',
    '',
    '| col | val |',
    '|-----|-----|',
    '| a   | 1   |',
    '',
    '```ts',
    'const x = 1',
    '',
    'console.log(x)',
    '```',
    '',
    '> A quote near the end.',
    '',
    'And the last paragraph keeps growing until the very end of the answer.',
  ].join('\n')

  beforeEach(() => __markdownStats.reset(true))
  afterEach(() => __markdownStats.reset(false))

  it('parses every finished block exactly once over 200 updates', () => {
    const updates = 200
    const texts = Array.from({ length: updates }, (_, i) =>
      DOC.slice(0, Math.ceil(((i + 1) * DOC.length) / updates)),
    )
    const { container, rerender } = render(<Markdown text={texts[0] as string} streaming />)
    for (const t of texts.slice(1)) rerender(<Markdown text={t} streaming />)
    rerender(<Markdown text={DOC} streaming={false} />)

    const blocks = splitBlocks(DOC)
    expect(blocks).toHaveLength(7)
    const parsed = __markdownStats.bySource as Map<string, number>
    // a list and a table are parsed in parts (items; the head, then runs of rows)
    const pieces = blocks.flatMap((b) => (b.parts && b.type !== 'code' ? b.parts : [b.source]))
    expect(pieces).toHaveLength(9)
    for (const p of pieces) expect(parsed.get(p), p).toBe(1)
    // far fewer parses than blocks × updates, and far less lexing than the whole text each time
    expect(__markdownStats.parses).toBeLessThan(updates + blocks.length * 3)
    const naive = texts.reduce((n, t) => n + t.length, 0)
    expect(__markdownStats.lexedChars).toBeLessThan(naive / 3)

    // and the result is the whole document
    expect(screen.getByRole('heading', { name: 'Streaming answer' })).toBeTruthy()
    expect(screen.getByRole('table')).toBeTruthy()
    expect(container.querySelector('pre')?.textContent).toBe('const x = 1\n\nconsole.log(x)')
    expect(container.textContent).toContain('until the very end of the answer.')
  })

  it('starts over when the text is replaced by another one', () => {
    const { container, rerender } = render(<Markdown text={'first answer\n\n- a\n- b'} streaming />)
    rerender(<Markdown text={'Another one entirely.'} streaming />)
    expect(container.querySelector('ul')).toBeNull()
    expect(container.textContent).toBe('Another one entirely.')
  })
})
