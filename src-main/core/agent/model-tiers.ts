import type { TurnDeps } from './turn-state'

/**
 * Which model does which job, resolved in one place. `default` answers the user; `utility`
 * writes summaries of long conversations: the provider's utility model when one is set
 * (same endpoint, same key), else the session's own. Another tier is one more entry here.
 */
export type ModelTier = 'default' | 'utility'

export type TierModel = TurnDeps['llm']

export function modelForTier(llm: TurnDeps['llm'], tier: ModelTier): TierModel {
  switch (tier) {
    case 'default':
      return llm
    case 'utility':
      return llm.utilityModel && llm.utilityModel !== llm.model
        ? { ...llm, model: llm.utilityModel, params: {}, notices: [] }
        : llm
  }
}
