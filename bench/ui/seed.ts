/**
 * Writes the benchmark's sessions into a data directory with the real store, before browser
 * mode opens it: alternating user/assistant messages, the assistant's in Markdown with code
 * blocks and tables. Each session's last answer ends with a marker word of its own, which
 * tells the page that the session's last messages are on screen. And the settings a stream
 * needs: read-only tool calls run without asking (the `tools` shape), no limit on model
 * calls and tool runs a stream could reach, and no context window (the whole session is
 * sent: nothing is summarized first, which would be a model call of its own).
 */
import { mkdirSync } from 'node:fs'
import { join } from 'node:path'
import type { NewMessage } from '../../src-preload/contract/dto'
import {
  createSessionStore,
  type SqliteSessionStore,
} from '../../src-main/adapters/sqlite/session-store'
import { openSettings } from '../../src-main/adapters/settings/settings-store'
import { rng, TextMaker } from './text'

export interface SeededSession {
  id: string
  /** its title in the sidebar */
  title: string
  messages: number
  /** a word only the session's last message has */
  marker: string
  /** characters of content stored */
  chars: number
}

interface Shape {
  title: string
  messages: number
  /** blocks per answer */
  blocks: [number, number]
  code: number
  table: number
}

/** a session of 500 messages, answers of 3–8 blocks, about a third of them code */
export const LONG_ANSWERS: Omit<Shape, 'title'> = {
  messages: 500,
  blocks: [3, 8],
  code: 0.35,
  table: 0.08,
}

/** a session of 10 000 shorter messages, some code */
export const MANY_MESSAGES: Omit<Shape, 'title'> = {
  messages: 10_000,
  blocks: [1, 3],
  code: 0.12,
  table: 0.03,
}

function seedOne(store: SqliteSessionStore, shape: Shape, seed: number): SeededSession {
  const text = new TextMaker(rng(seed))
  const session = store.createSession({ title: shape.title, provider: 'bench', model: 'bench' })
  const marker = `endmarker${seed}x${shape.messages}`
  let chars = 0
  store.batch(() => {
    for (let i = 0; i < shape.messages; i += 2) {
      const turnId = `seed-${seed}-${i}`
      const user: NewMessage = { role: 'user', content: text.question(), turnId }
      let answer = text.answer(text.int(...shape.blocks), shape)
      if (i + 2 >= shape.messages) answer += `\n\nThat is all: ${marker}.`
      const assistant: NewMessage = {
        role: 'assistant',
        content: answer,
        turnId,
        provider: 'bench',
        model: 'bench',
        usage: {
          inputTokens: 1000 + i,
          outputTokens: Math.ceil(answer.length / 4),
          estimated: false,
        },
      }
      store.appendMessage(session.id, user)
      store.appendMessage(session.id, assistant)
      chars += user.content.length + answer.length
    }
  })
  return { id: session.id, title: shape.title, messages: shape.messages, marker, chars }
}

export interface Seeded {
  /** 500-message sessions, one per stream (each stream starts from the same state) */
  long: SeededSession[]
  /** a 500-message session to open */
  toOpen: SeededSession
  /** the 10 000-message session */
  many: SeededSession
}

export function seedSessions(dataDir: string, longCopies: number): Seeded {
  let t = Date.UTC(2025, 0, 1)
  const store = createSessionStore(dataDir, { now: () => (t += 20_000) })
  try {
    const long: SeededSession[] = []
    for (let i = 0; i < longCopies; i++) {
      // the same seed: identical content, so every stream starts from the same page
      long.push(seedOne(store, { ...LONG_ANSWERS, title: `Bench: 500 messages (${i + 1})` }, 500))
    }
    const toOpen = seedOne(store, { ...LONG_ANSWERS, title: 'Bench: 500 messages to open' }, 500)
    const many = seedOne(store, { ...MANY_MESSAGES, title: 'Bench: 10 000 messages' }, 10_000)
    return { long, toOpen, many }
  } finally {
    store.close()
  }
}

/** folders in the workspace, for the `tools` shape's calls to list */
export const WORKSPACE_FOLDERS = 10

/** The settings of the streams (see the top of this file), and a workspace of folders. */
export function writeSettings(dataDir: string, workspace: string): void {
  for (let i = 0; i < WORKSPACE_FOLDERS; i++) {
    mkdirSync(join(workspace, `d${i}`), { recursive: true })
  }
  openSettings(dataDir).updateSync((s) => {
    s.defaultWorkspace = workspace
    s.permissionPolicy = 'read-only'
    s.limits = {
      ...s.limits,
      contextTokens: 0,
      maxIterations: 100_000,
      maxToolExecutions: 100_000,
    }
  })
}
