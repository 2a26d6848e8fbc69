/**
 * An in-memory assistants host for the assistant screens' component tests: the
 * `assistants.*` routes with the host's rules the screens rely on (names unique without
 * case, the default cannot be deleted, an imported name that is taken gets " (2)"), and a
 * tool preview computed from a fixed set of built-in tools and MCP servers.
 */
import type {
  Assistant,
  AssistantDraft,
  AssistantToolPreview,
  AssistantTools,
  ToolSelection,
} from '../../../src-preload/contract/assistants'
import type { RouteInput } from '../../../src-preload/contract/routes'
import { RouteFailure, type Handlers } from './test-platform'
import { mcpServer } from './mcp-server'

export const BUILTINS = [
  {
    name: 'list_directory',
    title: 'List directory',
    description: 'Lists a folder.',
    readOnly: true,
  },
  { name: 'read_file', title: 'Read file', description: 'Reads a file. More.', readOnly: true },
  { name: 'run_command', title: 'Run command', description: 'Runs a command.', readOnly: false },
]

export const SERVER_TOOLS: Record<string, string[]> = { everything: ['echo', 'add'] }

const allTools = (): AssistantTools => ({
  builtin: { mode: 'all', names: [] },
  mcp: { servers: {}, others: 'all' },
})

export function assistant(
  id: string,
  draft: Partial<AssistantDraft>,
  origin: Assistant['origin'] = 'user',
): Assistant {
  return {
    name: id,
    tools: allTools(),
    limits: {},
    ...draft,
    id,
    origin,
    createdAt: 1,
    updatedAt: 1,
  }
}

const pick = (sel: ToolSelection, names: readonly string[]): string[] =>
  sel.mode === 'all'
    ? [...names]
    : sel.mode === 'none'
      ? []
      : names.filter((n) => sel.names.includes(n))

export function previewOf(d: AssistantDraft): RouteOutputsPreview {
  const tools: AssistantToolPreview[] = pick(
    d.tools.builtin,
    BUILTINS.map((t) => t.name),
  ).map((name) => ({
    name,
    server: null,
    description: BUILTINS.find((t) => t.name === name)!.description,
    readOnly: BUILTINS.find((t) => t.name === name)!.readOnly,
  }))
  for (const [server, names] of Object.entries(SERVER_TOOLS)) {
    const sel = d.tools.mcp.servers[server] ?? { mode: d.tools.mcp.others, names: [] }
    for (const name of pick(sel, names))
      tools.push({ name, server, description: `${name} of ${server}.`, readOnly: false })
  }
  const missing = [
    ...(d.tools.builtin.mode === 'some' ? d.tools.builtin.names : [])
      .filter((n) => !BUILTINS.some((t) => t.name === n))
      .map((name) => ({ server: null, name })),
    ...Object.entries(d.tools.mcp.servers).flatMap(([server, sel]) =>
      sel.mode === 'some'
        ? sel.names
            .filter((n) => !(SERVER_TOOLS[server] ?? []).includes(n))
            .map((name) => ({ server, name }))
        : [],
    ),
  ]
  return { tools, findTools: false, missing }
}

type RouteOutputsPreview = {
  tools: AssistantToolPreview[]
  findTools: boolean
  missing: { server: string | null; name: string }[]
}

export function assistantsHost(
  initial: Assistant[] = [
    assistant('default', { name: 'Default' }, 'default'),
    assistant(
      'chat',
      {
        name: 'Chat',
        tools: { builtin: { mode: 'none', names: [] }, mcp: { servers: {}, others: 'none' } },
      },
      'builtin',
    ),
  ],
) {
  let list = structuredClone(initial)
  let next = 1
  const created: RouteInput<'assistants.create'>[] = []
  const updated: RouteInput<'assistants.update'>[] = []
  const previews: AssistantDraft[] = []
  const taken = (name: string, except: string | null): boolean =>
    list.some((a) => a.id !== except && a.name.trim().toLowerCase() === name.trim().toLowerCase())
  // as the host says it: a conflict about the assistant's name field
  const nameTaken = (name: string): RouteFailure => {
    const message = `An assistant named "${name}" exists.`
    return new RouteFailure('conflict', message, { fields: { name: message } })
  }
  const sorted = (): Assistant[] => [...list].sort((a, b) => a.name.localeCompare(b.name))
  const find = (id: string): Assistant => {
    const a = list.find((x) => x.id === id)
    if (!a) throw new RouteFailure('not_found', `There is no assistant ${id}.`)
    return a
  }
  const add = (draft: AssistantDraft): Assistant => {
    const a = assistant(`a${next++}`, draft)
    list.push(a)
    return a
  }
  const handlers: Handlers = {
    'assistants.list': () => ({ assistants: sorted(), defaultId: 'default' }),
    'assistants.get': ({ id }) => find(id),
    'assistants.create': (input) => {
      created.push(input)
      if (taken(input.assistant.name, null)) throw nameTaken(input.assistant.name)
      return add(input.assistant)
    },
    'assistants.update': (input) => {
      updated.push(input)
      const old = find(input.id)
      if (taken(input.assistant.name, input.id)) throw nameTaken(input.assistant.name)
      const a: Assistant = {
        ...input.assistant,
        id: old.id,
        origin: old.origin,
        createdAt: 1,
        updatedAt: 2,
      }
      list = list.map((x) => (x.id === old.id ? a : x))
      return a
    },
    'assistants.duplicate': ({ id }) => {
      const { id: _id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = find(id)
      return add({ ...draft, name: `${draft.name} (copy)` })
    },
    'assistants.delete': ({ id }) => {
      if (id === 'default') throw new RouteFailure('conflict', 'The default assistant stays.')
      find(id)
      list = list.filter((a) => a.id !== id)
      return { deleted: true }
    },
    'assistants.export': ({ id }) => {
      const { id: _id, origin: _o, createdAt: _c, updatedAt: _u, ...draft } = find(id)
      return {
        filename: `${draft.name}.cairn-assistant.json`,
        mimeType: 'application/json',
        content: JSON.stringify({ cairnAssistant: 1, assistant: draft }),
      }
    },
    'assistants.import': ({ text, allowPolicy }) => {
      let file: { cairnAssistant?: number; assistant?: AssistantDraft }
      try {
        file = JSON.parse(text) as typeof file
      } catch {
        throw new RouteFailure('bad_request', 'The file is not JSON.')
      }
      if (file.cairnAssistant !== 1 || !file.assistant)
        throw new RouteFailure(
          'bad_request',
          'The file is not an exported assistant (cairnAssistant: 1).',
        )
      const name = file.assistant.name
      let n = 1
      let free = name
      while (taken(free, null)) free = `${name} (${++n})`
      // the settings' policy here is "ask", as a new user's: these two ask less
      const { permissionPolicy, ...rest } = file.assistant
      const looser =
        (permissionPolicy === 'read-only' || permissionPolicy === 'allow-all') && !allowPolicy
      return {
        assistant: add({
          ...rest,
          ...(permissionPolicy && !looser ? { permissionPolicy } : {}),
          name: free,
        }),
        renamedFrom: free === name ? null : name,
        policyNotApplied: looser ? permissionPolicy : null,
      }
    },
    'assistants.previewTools': ({ assistant: d }) => {
      previews.push(d)
      return previewOf(d)
    },
    'tools.builtins': () => ({ tools: BUILTINS, defaultWorkspace: '/home/me/Cairn' }),
    'mcp.list': () => ({
      fromFile: false,
      servers: Object.entries(SERVER_TOOLS).map(([name, tools]) =>
        mcpServer({
          name,
          command: 'everything',
          tools: tools.map((t) => ({ name: t, description: `${t} of ${name}.`, readOnly: false })),
        }),
      ),
    }),
  }
  return { handlers, created, updated, previews, current: () => list }
}
