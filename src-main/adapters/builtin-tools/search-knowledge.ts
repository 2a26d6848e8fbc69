/**
 * search_knowledge: searches the knowledge sources of the chat's project (the files and
 * folders added to it) and returns the best chunks, each with its file and place (a page,
 * or lines), for the model to answer from and cite. Read-only, within those sources only;
 * offered only to a chat whose project has sources.
 */
import {
  formatLocation,
  type KnowledgeHit,
  type KnowledgeSearchResult,
} from '../../../src-preload/contract/knowledge'
import { optionalInt, stringArg, text, ToolError, type BuiltinTool } from './tool-def'

const DEFAULT_RESULTS = 6
const MAX_RESULTS = 20
const MAX_QUERY = 1_000

export const searchKnowledgeTool: BuiltinTool = {
  name: 'search_knowledge',
  description:
    "Search the documents of this chat's project (its knowledge sources: files and folders " +
    'the user added) and get the passages that match best, each with its file and place ' +
    '(page or lines). Use it before answering a question those documents may answer; ask ' +
    'with the words the answer would use. Cite what you use as [file, page N] or [file, ' +
    'lines A-B].',
  inputSchema: {
    type: 'object',
    properties: {
      query: {
        type: 'string',
        minLength: 1,
        maxLength: MAX_QUERY,
        description: 'What to look for',
      },
      limit: {
        type: 'integer',
        minimum: 1,
        maximum: MAX_RESULTS,
        description: `How many passages (default ${DEFAULT_RESULTS})`,
      },
    },
    required: ['query'],
    additionalProperties: false,
  },
  annotations: { title: 'Search knowledge', readOnlyHint: true, openWorldHint: false },
  async run(args, env) {
    if (!env.knowledge)
      throw new ToolError("This chat's project has no knowledge sources to search.")
    const query = stringArg(args, 'query').trim()
    if (query === '' || query.length > MAX_QUERY)
      throw new ToolError(`The query must be 1 to ${MAX_QUERY} characters.`)
    const limit = optionalInt(args, 'limit', 1, MAX_RESULTS) ?? DEFAULT_RESULTS
    const result = await env.knowledge.search(query, limit)
    return {
      ...text(render(query, result)),
      structuredContent: { query, mode: result.mode, fallback: result.fallback, hits: result.hits },
    }
  },
}

function render(query: string, result: KnowledgeSearchResult): string {
  const lines: string[] = []
  if (result.fallback) lines.push(`(${result.fallback})`)
  if (result.hits.length === 0) {
    lines.push(`Nothing in the project's documents matches "${query}".`)
    return lines.join('\n')
  }
  result.hits.forEach((h, i) => lines.push(passage(i + 1, h)))
  return lines.join('\n\n')
}

function passage(n: number, h: KnowledgeHit): string {
  const heading = h.heading ? ` — ${h.heading}` : ''
  return `[${n}] ${h.file}, ${formatLocation(h.location)}${heading}\n${h.text}`
}
