/**
 * The first run: no provider is configured. Cairn shows the local servers it found and
 * the presets, and ends in a working chat with a first prompt to try.
 */
import type { JSX } from 'react'
import { useLive } from '../../state/context'
import { EndpointForm } from './EndpointForm'
import { LocalModelOffer } from './LocalModelOffer'
import { LocalServers } from './LocalServers'
import { FIRST_PROMPT, type NewProvider } from './provider-patch'
import { useSaveProvider } from './use-save-provider'
import './onboarding.css'

export function Onboarding(props: { onSaved: (p: NewProvider) => void }): JSX.Element {
  const save = useSaveProvider(props.onSaved)
  const use = (p: NewProvider): void => save.mutate(p)
  return (
    <section className="onboarding" aria-labelledby="onb-title">
      <h2 id="onb-title">Connect Cairn to a model</h2>
      <p>
        Cairn runs a model itself, or talks to any OpenAI-compatible server: one running on this
        machine, or a cloud API with a key. Pick one to start chatting; you can change it later in
        the settings.
      </p>
      <LocalModelOffer onReady={props.onSaved} />
      <LocalServers busy={save.isPending} onUse={use} />
      <EndpointForm busy={save.isPending} onSave={use} />
      {save.isError ? (
        <p className="error" role="alert">
          Could not save the provider: {save.error.message}
        </p>
      ) : null}
    </section>
  )
}

/** After saving: ready, with a suggested first prompt that fills the message box. */
export function OnboardingDone(props: { provider: NewProvider }): JSX.Element {
  const setDraft = useLive((s) => s.setDraft)
  const focusComposer = useLive((s) => s.focusComposer)
  return (
    <section className="onboarding" aria-labelledby="onb-done">
      <h2 id="onb-done">Ready to chat</h2>
      <p>
        Cairn will use <strong>{props.provider.model}</strong> on {props.provider.name} (
        <code>{props.provider.baseURL}</code>).
      </p>
      <p>Type a message below, or start with this one:</p>
      <button
        type="button"
        className="onb-prompt"
        onClick={() => {
          setDraft(FIRST_PROMPT)
          focusComposer()
        }}
      >
        {FIRST_PROMPT}
      </button>
    </section>
  )
}
