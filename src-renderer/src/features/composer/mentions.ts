/**
 * The `@` of the message box: the word being typed after an `@` (at the start or after a
 * space) opens the resource picker, filtered by that word. Pure functions.
 */
import type {
  McpResource,
  McpResourceTemplate,
} from '../../../../src-preload/contract/resources-and-prompts'

export interface Mention {
  /** where the `@` is */
  start: number
  /** what follows it, up to the caret */
  query: string
}

/** The mention the caret is in, or null. */
export function mentionAt(text: string, caret: number): Mention | null {
  const before = text.slice(0, caret)
  const m = /(^|\s)@([^\s@]{0,200})$/.exec(before)
  if (!m) return null
  return { start: before.length - m[2]!.length - 1, query: m[2]! }
}

/** The text with the mention taken out (the chip stands for it). */
export function withoutMention(text: string, mention: Mention, caret: number): string {
  return text.slice(0, mention.start) + text.slice(caret)
}

export type Choice =
  { kind: 'resource'; resource: McpResource } | { kind: 'template'; template: McpResourceTemplate }

export function choiceLabel(c: Choice): string {
  return c.kind === 'resource'
    ? (c.resource.title ?? c.resource.name)
    : (c.template.title ?? c.template.name)
}

export function choiceDetail(c: Choice): string {
  return c.kind === 'resource'
    ? `${c.resource.server} · ${c.resource.uri}`
    : `${c.template.server} · ${c.template.uriTemplate}`
}

/** resources, then templates, whose name, title, URI or server contain every word typed */
export function filterChoices(
  resources: readonly McpResource[],
  templates: readonly McpResourceTemplate[],
  query: string,
  max = 50,
): Choice[] {
  const words = query
    .toLowerCase()
    .split(/[\s/:]+/)
    .filter(Boolean)
  const all: Choice[] = [
    ...resources.map((resource) => ({ kind: 'resource' as const, resource })),
    ...templates.map((template) => ({ kind: 'template' as const, template })),
  ]
  const out: Choice[] = []
  for (const c of all) {
    const hay = `${choiceLabel(c)} ${choiceDetail(c)}`.toLowerCase()
    if (words.every((w) => hay.includes(w))) out.push(c)
    if (out.length >= max) break
  }
  return out
}
