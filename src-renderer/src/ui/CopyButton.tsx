import { useEffect, useState, type JSX } from 'react'
import { useT } from '../i18n'
import { usePlatform } from '../state/context'

/** Copies text; says "Copied" (or why not) for a moment. */
export function CopyButton(props: { text: string; label: string }): JSX.Element {
  const { platform } = usePlatform()
  const [state, setState] = useState<'idle' | 'copied' | 'failed'>('idle')
  const t = useT()
  useEffect(() => {
    if (state === 'idle') return
    const t = setTimeout(() => setState('idle'), 1500)
    return () => clearTimeout(t)
  }, [state])
  return (
    <button
      type="button"
      className="action"
      aria-label={props.label}
      onClick={() =>
        void platform.copyText(props.text).then(
          () => setState('copied'),
          () => setState('failed'),
        )
      }
    >
      {state === 'copied'
        ? t('common.copied')
        : state === 'failed'
          ? t('common.copyFailed')
          : t('common.copy')}
    </button>
  )
}
