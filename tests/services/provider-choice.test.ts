/** Which provider and models a turn uses, from flags, the environment and the settings. */
import { describe, expect, it } from 'vitest'
import { resolveProvider } from '../../src-main/services/providers/provider'

const active = {
  id: 'local',
  name: 'Local',
  baseURL: 'http://127.0.0.1:11434/v1',
  defaultModel: 'big-model',
  utilityModel: 'small-model',
}
const sources = (env: NodeJS.ProcessEnv, withActive = true) => ({
  flags: {},
  env,
  active: withActive ? active : null,
  activeModel: null,
  storedKey: () => undefined,
})

describe('the utility model', () => {
  it("comes from the provider's settings, and CAIRN_UTILITY_MODEL overrides it", () => {
    expect(resolveProvider(sources({}))).toMatchObject({
      model: 'big-model',
      utilityModel: 'small-model',
    })
    expect(resolveProvider(sources({ CAIRN_UTILITY_MODEL: 'tiny' }))?.utilityModel).toBe('tiny')
  })

  it('is unset (the chat model does the work) when nothing names one', () => {
    const { utilityModel: _u, ...plain } = active
    const choice = resolveProvider({ ...sources({}), active: plain })
    expect(choice?.utilityModel).toBeUndefined()
    const fromEnv = resolveProvider(
      sources({ CAIRN_BASE_URL: 'http://127.0.0.1:9/v1', CAIRN_UTILITY_MODEL: 'tiny' }, false),
    )
    expect(fromEnv).toMatchObject({ baseURL: 'http://127.0.0.1:9/v1', utilityModel: 'tiny' })
  })
})
