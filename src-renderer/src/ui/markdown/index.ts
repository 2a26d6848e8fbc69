export { Markdown, prepareMarkdown } from './Markdown'
export type { MarkdownProps } from './Markdown'
export { LinkGuardProvider } from './links'
export { __markdownStats } from './stats'
