/** The provider presets as a grid of buttons: choosing one opens the form filled in. */
import type { JSX } from 'react'
import { PRESETS, type ProviderPreset } from '../../state/provider-presets'

export function PresetPicker(props: {
  onPick: (p: ProviderPreset) => void
  onCancel: () => void
}): JSX.Element {
  return (
    <div className="preset-picker" role="group" aria-labelledby="preset-picker-title">
      <h3 id="preset-picker-title">Add a provider</h3>
      <ul className="preset-grid">
        {PRESETS.map((p) => (
          <li key={p.id}>
            <button type="button" className="preset" onClick={() => props.onPick(p)}>
              <span className="preset-name">{p.name}</span>
              <span className="preset-note">
                {p.id === 'custom'
                  ? 'Any OpenAI-compatible URL'
                  : p.local
                    ? 'On this computer, no key'
                    : 'Needs an API key'}
              </span>
            </button>
          </li>
        ))}
      </ul>
      <button type="button" onClick={props.onCancel}>
        Cancel
      </button>
    </div>
  )
}
