/**
 * Provider presets: the endpoints people use most, so adding one is a click and a key.
 * Local servers need no key; their addresses are the servers' own defaults.
 */
export interface ProviderPreset {
  /** also the provider id a preset suggests */
  id: string
  name: string
  baseURL: string
  /** whether the endpoint needs an API key */
  needsKey: boolean
  /** where to get a key, shown beside the key field */
  keyHint?: string
  local: boolean
}

export const PRESETS: readonly ProviderPreset[] = [
  {
    id: 'openai',
    name: 'OpenAI',
    baseURL: 'https://api.openai.com/v1',
    needsKey: true,
    keyHint: 'platform.openai.com → API keys',
    local: false,
  },
  {
    id: 'openrouter',
    name: 'OpenRouter',
    baseURL: 'https://openrouter.ai/api/v1',
    needsKey: true,
    keyHint: 'openrouter.ai → Keys',
    local: false,
  },
  {
    id: 'deepseek',
    name: 'DeepSeek',
    baseURL: 'https://api.deepseek.com/v1',
    needsKey: true,
    keyHint: 'platform.deepseek.com → API keys',
    local: false,
  },
  {
    id: 'groq',
    name: 'Groq',
    baseURL: 'https://api.groq.com/openai/v1',
    needsKey: true,
    keyHint: 'console.groq.com → API Keys',
    local: false,
  },
  {
    id: 'mistral',
    name: 'Mistral',
    baseURL: 'https://api.mistral.ai/v1',
    needsKey: true,
    keyHint: 'console.mistral.ai → API keys',
    local: false,
  },
  {
    id: 'ollama',
    name: 'Ollama',
    baseURL: 'http://127.0.0.1:11434/v1',
    needsKey: false,
    local: true,
  },
  {
    id: 'lmstudio',
    name: 'LM Studio',
    baseURL: 'http://127.0.0.1:1234/v1',
    needsKey: false,
    local: true,
  },
  {
    id: 'llamacpp',
    name: 'llama.cpp',
    baseURL: 'http://127.0.0.1:8080/v1',
    needsKey: false,
    local: true,
  },
  { id: 'custom', name: 'Custom endpoint', baseURL: '', needsKey: false, local: false },
]
