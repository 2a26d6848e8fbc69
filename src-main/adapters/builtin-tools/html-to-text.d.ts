/**
 * The part of html-to-text (which ships no types) that `html-text.ts` uses.
 */
declare module 'html-to-text' {
  export interface DomElement {
    name: string
    attribs?: Record<string, string>
    children: DomElement[]
  }
  export interface BlockBuilder {
    openBlock(options?: { leadingLineBreaks?: number }): void
    closeBlock(options?: { trailingLineBreaks?: number }): void
    addInline(text: string, options?: { noWordTransform?: boolean }): void
  }
  export type FormatCallback = (
    elem: DomElement,
    walk: (nodes: DomElement[], builder: BlockBuilder) => void,
    builder: BlockBuilder,
    formatOptions: Record<string, unknown>,
  ) => void
  export interface SelectorDefinition {
    selector: string
    format?: string
    options?: Record<string, unknown>
  }
  export interface HtmlToTextOptions {
    baseElements?: { selectors?: string[]; returnDomByDefault?: boolean }
    decodeEntities?: boolean
    formatters?: Record<string, FormatCallback>
    limits?: {
      ellipsis?: string
      maxBaseElements?: number
      maxChildNodes?: number
      maxDepth?: number
      maxInputLength?: number
    }
    preserveNewlines?: boolean
    selectors?: SelectorDefinition[]
    wordwrap?: number | false | null
  }
  export function compile<M = unknown>(
    options?: HtmlToTextOptions,
  ): (html: string, metadata?: M) => string
  export function convert(html: string, options?: HtmlToTextOptions, metadata?: unknown): string
}
