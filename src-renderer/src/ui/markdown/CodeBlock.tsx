import {
  createContext,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type CSSProperties,
  type JSX,
} from 'react'
import type { HighlightLines, HighlightToken } from './highlight-core'
import { getHighlightClient } from './highlight-client'
import { resolveLanguage, withinHighlightLimits } from './languages'

/**
 * Whether the block being rendered is complete: false for the last block of an answer that
 * is still streaming. Code is highlighted only once complete. A context (not a prop of the
 * block) so that a block turning complete re-renders its code blocks, not its Markdown.
 */
export const BlockCompleteContext = createContext(true)

/**
 * Tokens for a complete block in a language we highlight, from the cache at once or from
 * the worker a moment later; null meanwhile, and for everything else (shown plain).
 */
function useHighlight(code: string, lang: string, wanted: boolean): HighlightLines | null {
  const client = getHighlightClient()
  const cached = wanted ? client.peek(code, lang) : null
  const [result, setResult] = useState<{
    code: string
    lang: string
    lines: HighlightLines | null
  } | null>(null)
  const waiting = cached === undefined
  useEffect(() => {
    if (!waiting) return
    let live = true
    void client.highlight(code, lang).then((lines) => {
      if (live) setResult({ code, lang, lines })
    })
    return () => {
      live = false
    }
  }, [client, code, lang, waiting])
  if (!waiting) return cached ?? null
  return result && result.code === code && result.lang === lang ? result.lines : null
}

type CopyState = 'idle' | 'copied' | 'failed'

const COPY_LABEL: Record<CopyState, string> = {
  idle: 'Copy',
  copied: 'Copied',
  failed: 'Copy failed',
}

function CopyButton(props: { text: string }): JSX.Element {
  const [state, setState] = useState<CopyState>('idle')
  const timer = useRef<ReturnType<typeof setTimeout> | null>(null)
  useEffect(
    () => () => {
      if (timer.current !== null) clearTimeout(timer.current)
    },
    [],
  )
  const copy = async (): Promise<void> => {
    let next: CopyState = 'copied'
    try {
      if (!navigator.clipboard) throw new Error('no clipboard')
      await navigator.clipboard.writeText(props.text)
    } catch {
      next = 'failed'
    }
    setState(next)
    if (timer.current !== null) clearTimeout(timer.current)
    timer.current = setTimeout(() => setState('idle'), 1_500)
  }
  return (
    <>
      <button
        type="button"
        className={`md-copy md-copy-${state}`}
        aria-label="Copy code"
        onClick={() => void copy()}
      >
        {COPY_LABEL[state]}
      </button>
      <span className="md-sr-only" role="status">
        {state === 'idle' ? '' : COPY_LABEL[state]}
      </span>
    </>
  )
}

const STYLE_CLASSES: [bit: number, className: string][] = [
  [1, 'md-i'],
  [2, 'md-b'],
  [4, 'md-u'],
  [8, 'md-s'],
]

function tokenSpan(t: HighlightToken, key: number): JSX.Element | string {
  if (!t.light && !t.dark && !t.style) return t.content
  const style: Record<string, string> = {}
  if (t.light) style['--l'] = t.light
  if (t.dark) style['--d'] = t.dark
  let className = 'md-tok'
  if (t.style) for (const [bit, name] of STYLE_CLASSES) if (t.style & bit) className += ` ${name}`
  return (
    <span key={key} className={className} style={style as CSSProperties}>
      {t.content}
    </span>
  )
}

function Highlighted(props: { lines: HighlightLines }): JSX.Element {
  const { lines } = props
  const rendered = useMemo(
    () =>
      lines.map((line, i) => (
        <span key={i} className="md-line">
          {line.map(tokenSpan)}
          {i < lines.length - 1 ? '\n' : null}
        </span>
      )),
    [lines],
  )
  return <>{rendered}</>
}

/**
 * A fenced or indented code block: a header with the language and a Copy button, then the
 * code, highlighted when the fence names a language we know and the block is complete.
 */
export function CodeBlock(props: { code: string; lang: string }): JSX.Element {
  const code = props.code.endsWith('\n') ? props.code.slice(0, -1) : props.code
  const complete = useContext(BlockCompleteContext)
  const known = resolveLanguage(props.lang) !== null
  const lines = useHighlight(code, props.lang, complete && known && withinHighlightLimits(code))
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{props.lang || 'text'}</span>
        <CopyButton text={code} />
      </div>
      <pre className="md-pre" tabIndex={0}>
        <code className="md-code-body">{lines ? <Highlighted lines={lines} /> : code}</code>
      </pre>
    </div>
  )
}
