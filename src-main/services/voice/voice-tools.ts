/**
 * A voice server is any MCP server offering the three speech-to-text tools below; Cairn
 * finds it by their names. The tools are Cairn's own: they are never offered to the model
 * (`withoutVoiceTools`) and never go through tool approval.
 */
import { ExpectedError } from '../../core/errors'
import type { SourceTool, ToolSource } from '../../core/tools/tool-source'

export const STT_START = 'stt_start_session'
export const STT_UPDATES = 'stt_get_updates'
export const STT_STOP = 'stt_stop_session'
const VOICE_TOOLS: readonly string[] = [STT_START, STT_UPDATES, STT_STOP]

function isVoiceTool(name: string): boolean {
  return VOICE_TOOLS.includes(name)
}

/** the server offers all three voice tools (a server that is not ready offers none) */
function isVoiceServer(source: ToolSource): boolean {
  const names = new Set(source.tools().map((t) => t.name))
  return VOICE_TOOLS.every((n) => names.has(n))
}

/**
 * The voice server to use among the (ready) sources: the one the settings name, else the
 * only one that qualifies.
 */
export function findVoiceServer(
  sources: readonly ToolSource[],
  preferred: string | null,
): ToolSource {
  const qualifying = sources.filter(isVoiceServer)
  if (preferred) {
    const named = sources.find((s) => s.name === preferred)
    if (named && isVoiceServer(named)) return named
    const why = !named
      ? 'is not configured'
      : named.status() !== 'ready'
        ? `is not running (${named.status()})`
        : `does not offer the tools ${VOICE_TOOLS.join(', ')}`
    throw new ExpectedError(
      'not_found',
      `The voice server "${preferred}" chosen in the settings ${why}.`,
    )
  }
  if (qualifying.length === 1) return qualifying[0]!
  if (qualifying.length === 0) {
    const notRunning = sources.filter((s) => s.status() !== 'ready').map((s) => s.name)
    throw new ExpectedError(
      'not_found',
      `No voice server: no running MCP server offers the tools ${VOICE_TOOLS.join(', ')}.` +
        (notRunning.length > 0 ? ` Not running now: ${notRunning.join(', ')}.` : ''),
    )
  }
  throw new ExpectedError(
    'conflict',
    `Several MCP servers offer voice input (${qualifying.map((s) => s.name).join(', ')}): choose one in Settings › General › Voice input.`,
  )
}

/** The source as the model sees it: the same server without its voice tools. */
export function withoutVoiceTools(source: ToolSource): ToolSource {
  return {
    name: source.name,
    trusted: source.trusted,
    configFingerprint: source.configFingerprint,
    status: () => source.status(),
    tools: (): SourceTool[] => source.tools().filter((t) => !isVoiceTool(t.name)),
    call: (tool, args, ctx) => source.call(tool, args, ctx),
    whenReady: (signal) => source.whenReady(signal),
  }
}
