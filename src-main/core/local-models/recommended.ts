/**
 * The small models the first run offers ("Download a small model and chat offline"), best
 * first: the first whose file fits this machine's memory is offered. Each is a GGUF file of
 * a public Hugging Face repository, chosen for answering well at its size and for a chat
 * template with tool calling.
 */
import { fitsMemory } from './memory'

export interface RecommendedChoice {
  repo: string
  file: string
  label: string
  /** about this many bytes (the hub's figure is shown once asked) */
  approxSize: number
}

export const RECOMMENDED_MODELS: readonly RecommendedChoice[] = [
  {
    repo: 'Qwen/Qwen3-1.7B-GGUF',
    file: 'Qwen3-1.7B-Q8_0.gguf',
    label: 'Qwen3 1.7B',
    approxSize: 1_830_000_000,
  },
  {
    repo: 'Qwen/Qwen3-0.6B-GGUF',
    file: 'Qwen3-0.6B-Q8_0.gguf',
    label: 'Qwen3 0.6B',
    approxSize: 640_000_000,
  },
]

/** The first recommended model that fits `totalMemory` bytes; null when none does. */
export function recommendedFor(totalMemory: number): RecommendedChoice | null {
  return RECOMMENDED_MODELS.find((m) => fitsMemory(m.approxSize, totalMemory)) ?? null
}
