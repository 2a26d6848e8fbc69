/**
 * `cairn assistants …` and `--assistant <name>`, with the built CLI in its own process, the
 * scripted OpenAI server and a real MCP server.
 */
import { readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { startCliEnv, runCli } from '../support/cli'
import { fixture } from '../support/mcp'
import { textReply, type RecordedRequest, type ScriptedServer } from '../support/openai-server'

let server: ScriptedServer
let dir: string
let env: NodeJS.ProcessEnv
let mcpConfig: string
let stop: () => Promise<void>

beforeAll(async () => {
  ;({
    server,
    dir,
    env,
    configFile: mcpConfig,
    stop,
  } = await startCliEnv({
    prefix: 'cairn-cli-assistants-',
    models: ['m'],
    mcpServers: { echo: { command: process.execPath, args: [fixture('echo-server.mjs')] } },
  }))
})
afterAll(() => stop())
beforeEach(() => {
  server.requests.length = 0
})

const toolNames = (req: RecordedRequest | undefined): string[] | undefined =>
  (req?.body.tools as { function: { name: string } }[] | undefined)?.map((t) => t.function.name)

const cli = (...args: string[]) => runCli(args, { env })

describe('cairn assistants', () => {
  it('lists the default assistant and the three built-in ones', async () => {
    const r = await cli('assistants', 'list')
    expect(r.code).toBe(0)
    const names = r.stdout
      .trim()
      .split('\n')
      .map((l) => l.split('  ')[0])
    expect(names).toEqual(['Default (default)', 'Chat', 'Files', 'Researcher'])
    const json = JSON.parse((await cli('assistants', 'list', '--json')).stdout) as {
      defaultId: string
      assistants: { name: string }[]
    }
    expect(json.defaultId).toBe('default')
    expect(json.assistants).toHaveLength(4)
  })

  it('an assistant that may use one tool: a turn with it offers the model only that tool', async () => {
    const made = await cli(
      'assistants',
      'create',
      'One tool',
      '--tools',
      'echo:echo',
      '--prompt',
      'Use echo.',
    )
    expect(made.stderr).toBe('')
    expect(made).toMatchObject({ code: 0 })
    expect(made.stdout).toContain('Created the assistant "One tool" (tools: echo:echo)')

    server.enqueue(textReply('Hi.'))
    const turn = await runCli(['--mcp-config', mcpConfig, '--assistant', 'one TOOL', 'hello'], {
      env,
    })
    expect(turn.code).toBe(0)
    expect(toolNames(server.requests[0])).toEqual(['echo__echo'])
    expect(String(server.requests[0]!.body.messages[0].content)).toContain('Use echo.')
    const sessions = JSON.parse((await cli('sessions', 'list', '--json')).stdout) as {
      sessions: { assistant: { name: string } }[]
    }
    expect(sessions.sessions[0]!.assistant.name).toBe('One tool')
    expect((await cli('sessions', 'list')).stdout.split('\n')[0]).toMatch(/m · One tool {2}hello$/)
  })

  it('tools: what a turn with the assistant would offer the model now', async () => {
    const one = await runCli(['assistants', 'tools', 'One tool', '--mcp-config', mcpConfig], {
      env,
    })
    expect(one.code).toBe(0)
    expect(one.stdout.trim().split('\n')).toEqual([
      expect.stringMatching(/^echo__echo {2}server echo/),
    ])
    const files = await cli('assistants', 'tools', 'Files', '--json')
    const preview = JSON.parse(files.stdout) as { tools: { name: string; server: null }[] }
    expect(preview.tools.map((t) => t.name).sort()).toEqual(
      ['edit_file', 'list_directory', 'read_file', 'search_files', 'write_file'].sort(),
    )
    const chat = await cli('assistants', 'tools', 'chat')
    expect(chat.stdout).toContain('"Chat" offers the model no tools.')
  })

  it('--assistant with --session switches that session from this turn on', async () => {
    server.enqueue(textReply('One.'), textReply('Two.'))
    const first = await runCli(['--mcp-config', mcpConfig, '--json', 'first'], { env })
    expect(first.code).toBe(0)
    expect(toolNames(server.requests[0])).toEqual(expect.arrayContaining(['echo__echo']))
    const { sessions } = JSON.parse((await cli('sessions', 'list', '--json')).stdout) as {
      sessions: { id: string }[]
    }
    const id = sessions[0]!.id
    const second = await runCli(
      ['--mcp-config', mcpConfig, '--session', id, '--assistant', 'Chat', 'second'],
      { env },
    )
    expect(second.code).toBe(0)
    expect(server.requests[1]!.body).not.toHaveProperty('tools')
  })

  it('shows, edits (only what is given) and refuses a name that is taken', async () => {
    expect((await cli('assistants', 'create', 'Editable', '--temperature', '0.5')).code).toBe(0)
    const edit = await cli(
      'assistants',
      'edit',
      'editable',
      '--name',
      'Edited',
      '--policy',
      'read-only',
      '--tools',
      'read_file,builtin:search_files,git:*',
      '--max-iterations',
      '7',
    )
    expect(edit.code).toBe(0)
    const shown = await cli('assistants', 'show', 'Edited')
    expect(shown.stdout).toMatch(/Temperature:\s+0\.5/)
    expect(shown.stdout).toMatch(/Policy:\s+read-only/)
    expect(shown.stdout).toMatch(/Tools:\s+read_file,search_files,git:\*/)
    expect(shown.stdout).toMatch(/Max iterations:\s+7/)
    const json = JSON.parse((await cli('assistants', 'show', 'Edited', '--json')).stdout) as object
    expect(json).toMatchObject({
      tools: {
        builtin: { mode: 'some', names: ['read_file', 'search_files'] },
        mcp: { servers: { git: { mode: 'all' } }, others: 'none' },
      },
    })

    const unset = await cli('assistants', 'edit', 'Edited', '--unset', 'temperature')
    expect(unset.code).toBe(0)
    expect((await cli('assistants', 'show', 'Edited')).stdout).toMatch(
      /Temperature:\s+\(the server/,
    )

    const clash = await cli('assistants', 'edit', 'Edited', '--name', 'files')
    expect(clash.code).toBe(1)
    expect(clash.stderr).toContain('An assistant named "Files" exists already')
    const bad = await cli('assistants', 'edit', 'Edited', '--temperature', '9')
    expect(bad.code).toBe(2)
    expect(bad.stderr).toContain('temperature')
  })

  it('exports to a file or stdout and imports it back under a free name', async () => {
    const file = join(dir, 'researcher.json')
    const written = await cli('assistants', 'export', 'Researcher', file)
    expect(written.code).toBe(0)
    const content = readFileSync(file, 'utf8')
    expect((await cli('assistants', 'export', 'Researcher')).stdout).toBe(content)
    const parsed = JSON.parse(content) as { cairnAssistant: number; assistant: object }
    expect(parsed.cairnAssistant).toBe(1)
    expect(parsed.assistant).not.toHaveProperty('id')
    expect(parsed.assistant).toMatchObject({ name: 'Researcher' })

    const imported = await cli('assistants', 'import', file)
    expect(imported.code).toBe(0)
    expect(imported.stdout).toContain('Imported the assistant as "Researcher (2)"')
    const piped = await runCli(['assistants', 'import', '-'], { env, input: content })
    expect(piped.stdout).toContain('"Researcher (3)"')
  })

  it('says what is wrong with a bad file', async () => {
    const file = join(dir, 'bad.json')
    writeFileSync(file, JSON.stringify({ cairnAssistant: 1, assistant: { name: '' } }))
    const r = await cli('assistants', 'import', file)
    // a file that is not valid is a usage error, as a --mcp-config file that is not
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/not valid: assistant\.name/)
    const missing = await cli('assistants', 'import', join(dir, 'nope.json'))
    expect(missing.code).toBe(2)
    expect(missing.stderr).toContain('cannot read')
  })

  it('deletes an assistant but not the default one; an unknown name is a usage error', async () => {
    expect((await cli('assistants', 'create', 'Doomed')).code).toBe(0)
    const gone = await cli('assistants', 'delete', 'Doomed')
    expect(gone).toMatchObject({ code: 0 })
    expect(gone.stdout).toContain('Deleted the assistant "Doomed"')
    const def = await cli('assistants', 'delete', 'Default')
    expect(def.code).toBe(1)
    expect(def.stderr).toContain('cannot be deleted')
    const unknown = await runCli(['--assistant', 'Nobody', 'hi'], { env })
    expect(unknown.code).toBe(2)
    expect(unknown.stderr).toContain('there is no assistant "Nobody"')
    expect(server.requests).toHaveLength(0)
  })
})
