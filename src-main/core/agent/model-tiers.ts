import type { TurnDeps } from './turn-context'

/**
 * Which model does which job, resolved in one place. `default` answers the user; `utility`
 * writes summaries of long conversations. Until a utility model can be chosen per
 * provider, it is the session's own model; another tier is one more entry here.
 */
export type ModelTier = 'default' | 'utility'

export type TierModel = TurnDeps['llm']

export function modelForTier(llm: TurnDeps['llm'], tier: ModelTier): TierModel {
  switch (tier) {
    case 'default':
    case 'utility':
      return llm
  }
}
