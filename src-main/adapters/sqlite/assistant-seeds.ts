/**
 * The assistants a database starts with (migration v9): the default one and three
 * built-in ones. They are ordinary rows afterwards: the user edits, duplicates and (all but
 * the default) deletes them. These values are part of a shipped migration: never edit them;
 * a change of what new databases get is a new migration.
 */
import {
  DEFAULT_ASSISTANT_ID,
  type AssistantDraft,
  type AssistantOrigin,
} from '../../../src-preload/contract/assistants'

export interface AssistantSeed {
  id: string
  origin: AssistantOrigin
  draft: AssistantDraft
}

const READ_TOOLS = ['read_file', 'list_directory', 'search_files']

export const ASSISTANT_SEEDS: readonly AssistantSeed[] = [
  {
    id: DEFAULT_ASSISTANT_ID,
    origin: 'default',
    draft: {
      name: 'Default',
      description:
        'Cairn as the settings set it up: their system prompt, provider and model, permission policy and limits, and every tool.',
      tools: { builtin: { mode: 'all', names: [] }, mcp: { servers: {}, others: 'all' } },
      limits: {},
    },
  },
  {
    id: 'builtin-chat',
    origin: 'builtin',
    draft: {
      name: 'Chat',
      description: 'Conversation only: the model is offered no tools at all.',
      tools: { builtin: { mode: 'none', names: [] }, mcp: { servers: {}, others: 'none' } },
      limits: {},
    },
  },
  {
    id: 'builtin-files',
    origin: 'builtin',
    draft: {
      name: 'Files',
      description:
        'Reads, lists, searches, writes and edits files in the workspace with the built-in tools (no commands, no web, no MCP tools). Reading runs without asking.',
      tools: {
        builtin: { mode: 'some', names: [...READ_TOOLS, 'write_file', 'edit_file'] },
        mcp: { servers: {}, others: 'none' },
      },
      permissionPolicy: 'read-only',
      limits: {},
    },
  },
  {
    id: 'builtin-researcher',
    origin: 'builtin',
    draft: {
      name: 'Researcher',
      description:
        'Fetches web pages and reads the workspace (fetch_url and the read-only built-in tools). Reading files runs without asking; each fetch is asked about.',
      tools: {
        builtin: { mode: 'some', names: ['fetch_url', ...READ_TOOLS] },
        mcp: { servers: {}, others: 'none' },
      },
      permissionPolicy: 'read-only',
      limits: {},
    },
  },
]
