/**
 * Context windows (tokens) of well-known models, for servers that do not say. Matched on
 * the model name without its provider prefix (`openai/gpt-4o` → `gpt-4o`) and without an
 * Ollama tag (`llama3.1:8b` → `llama3.1`); the longest matching prefix wins.
 */
const KNOWN: ReadonlyArray<readonly [prefix: string, tokens: number]> = [
  ['gpt-4o', 128_000],
  ['gpt-4.1', 1_047_576],
  ['gpt-4-turbo', 128_000],
  ['gpt-4', 8_192],
  ['gpt-3.5-turbo', 16_385],
  ['gpt-5', 400_000],
  ['o1', 200_000],
  ['o3', 200_000],
  ['o4-mini', 200_000],
  ['deepseek-chat', 128_000],
  ['deepseek-reasoner', 128_000],
  ['claude', 200_000],
  ['gemini-1.5', 1_048_576],
  ['gemini-2', 1_048_576],
  ['mistral-large', 131_072],
  ['mistral-small', 131_072],
  ['magistral', 40_960],
  ['llama3.1', 131_072],
  ['llama3.2', 131_072],
  ['llama-3.1', 131_072],
  ['llama-3.3', 131_072],
  ['qwen3', 40_960],
  ['qwen2.5', 32_768],
  ['gemma3', 131_072],
]

export function knownContextWindow(model: string): number | null {
  const name = model.toLowerCase().split('/').pop()!.split(':')[0]!
  let best: readonly [string, number] | null = null
  for (const entry of KNOWN) {
    if (name.startsWith(entry[0]) && (best === null || entry[0].length > best[0].length))
      best = entry
  }
  return best ? best[1] : null
}
