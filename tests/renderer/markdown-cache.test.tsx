// @vitest-environment jsdom
import { cleanup, render } from '@testing-library/react'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { Markdown, prepareMarkdown, __markdownStats } from '../../src-renderer/src/ui/markdown'

beforeEach(() => __markdownStats.reset(true))
afterEach(() => {
  cleanup()
  __markdownStats.reset(false)
})

describe('parsed blocks are kept', () => {
  it('an answer shown again (scrolled back, reopened) is not parsed again', () => {
    const text = `# Title ${Math.random()}\n\nA paragraph with **bold**.\n\n- one\n- two`
    const first = render(<Markdown text={text} />)
    const parses = __markdownStats.parses
    // the heading, the paragraph and each item of the list
    expect(parses).toBe(4)
    first.unmount()
    const second = render(<Markdown text={text} />)
    expect(__markdownStats.parses).toBe(parses)
    expect(second.container.querySelector('h1')?.textContent).toContain('Title')
    expect(second.container.querySelectorAll('li')).toHaveLength(2)
  })

  it('an answer prepared ahead of time renders without parsing', () => {
    const text = `Prepared ${Math.random()}\n\n| a | b |\n| - | - |\n| 1 | 2 |`
    prepareMarkdown(text)
    __markdownStats.reset(true)
    const { container } = render(<Markdown text={text} />)
    expect(__markdownStats.parses).toBe(0)
    expect(container.querySelector('table')).not.toBeNull()
  })

  it('the streaming end of an answer is not kept: only finished blocks are', () => {
    const base = `Streaming ${Math.random()}`
    const { rerender, unmount } = render(<Markdown text={`${base} one`} streaming />)
    rerender(<Markdown text={`${base} one two`} streaming />)
    rerender(<Markdown text={`${base} one two three`} streaming={false} />)
    const parses = __markdownStats.parses
    expect(parses).toBe(3)
    unmount()
    render(<Markdown text={`${base} one`} />)
    // the early partial text was never kept: shown again, it is parsed again
    expect(__markdownStats.parses).toBe(parses + 1)
    render(<Markdown text={`${base} one two three`} />)
    expect(__markdownStats.parses).toBe(parses + 1)
  })
})
