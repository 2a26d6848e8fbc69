import {
  createContext,
  memo,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type JSX,
} from 'react'
import { useT } from '../../i18n'
import { codeParts, PART_SIZES } from './block-parts'
import { countRender } from './stats'
import type { HighlightLines, HighlightToken } from './highlight-core'
import { getHighlightClient } from './highlight-client'
import { resolveLanguage, withinHighlightLimits } from './languages'
import { tokenColorClass } from './token-classes'

/**
 * Whether the block being rendered is complete: false for the last block of an answer that
 * is still streaming. Code is highlighted only once complete. A context (not a prop of the
 * block) so that a block turning complete re-renders its code blocks, not its Markdown.
 */
export const BlockCompleteContext = createContext(true)

/**
 * Tokens for a complete block in a language we highlight, from the cache at once or from
 * the worker a moment later (results are handed over once per frame, all together); null
 * meanwhile, and for everything else (shown plain). `code` null: not wanted (yet).
 */
function useHighlight(code: string | null, lang: string): HighlightLines | null {
  const client = getHighlightClient()
  const cached = code === null ? null : client.peek(code, lang)
  const [result, setResult] = useState<{
    code: string
    lang: string
    lines: HighlightLines | null
  } | null>(null)
  const waiting = cached === undefined
  useEffect(() => {
    if (!waiting || code === null) return
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

/** Highlighted parts shown per frame: a long block's spans are added a few parts at a time. */
const PARTS_PER_FRAME = 4

/** how many of `total` parts to show highlighted: all of them, over a few frames */
function useProgressive(lines: HighlightLines | null, total: number): number {
  const [shown, setShown] = useState<{ lines: HighlightLines | null; n: number }>({
    lines: null,
    n: 0,
  })
  const n = shown.lines === lines ? shown.n : Math.min(total, PARTS_PER_FRAME)
  useEffect(() => {
    if (!lines || n >= total) return
    const frame = requestAnimationFrame(() =>
      setShown({ lines, n: Math.min(total, n + PARTS_PER_FRAME) }),
    )
    return () => cancelAnimationFrame(frame)
  }, [lines, n, total])
  return lines ? n : 0
}

type CopyState = 'idle' | 'copied' | 'failed'

const COPY_LABEL = { idle: 'common.copy', copied: 'common.copied', failed: 'common.copyFailed' } as const

/** `text` gives the code to copy (read when pressed: a streaming block's grows) */
function CopyButton(props: { text: () => string }): JSX.Element {
  const [state, setState] = useState<CopyState>('idle')
  const t = useT()
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
      await navigator.clipboard.writeText(props.text())
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
        aria-label={t('common.copyCode')}
        onClick={() => void copy()}
      >
        {t(COPY_LABEL[state])}
      </button>
      <span className="md-sr-only" role="status">
        {state === 'idle' ? '' : t(COPY_LABEL[state])}
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
  let className = 'md-tok'
  const colors = tokenColorClass(t.light, t.dark)
  if (colors) className += ` ${colors}`
  if (t.style) for (const [bit, name] of STYLE_CLASSES) if (t.style & bit) className += ` ${name}`
  return (
    <span key={key} className={className}>
      {t.content}
    </span>
  )
}

/** Lines `from`…`to` of a highlighted block; every line but the block's last ends in \n. */
const HighlightedPart = memo(function HighlightedPart(props: {
  lines: HighlightLines
  from: number
  to: number
}): JSX.Element {
  const { lines, from, to } = props
  const spans: JSX.Element[] = []
  for (let i = from; i < to; i++) {
    spans.push(
      <span key={i} className="md-line">
        {lines[i]!.map(tokenSpan)}
        {i < lines.length - 1 ? '\n' : null}
      </span>,
    )
  }
  return <span className="md-code-part">{spans}</span>
})

/** A part of a block's code, plain. */
const PlainPart = memo(function PlainPart(props: { text: string }): JSX.Element {
  countRender(props.text)
  return <span className="md-code-part">{props.text}</span>
})

const withoutFinalNewline = (s: string): string => (s.endsWith('\n') ? s.slice(0, -1) : s)

/**
 * A fenced or indented code block: a header with the language and a Copy button, then the
 * code, highlighted when the fence names a language we know and the block is complete.
 * The code is drawn in parts (runs of lines, `block-parts.ts`): while the block streams,
 * only its last part changes; once highlighted, the parts turn highlighted a few per frame.
 */
export function CodeBlock(props: {
  code: string
  lang: string
  /** the code in runs of lines (they add up to `code`); default: cut here */
  parts?: readonly string[] | null
  /** default: the enclosing block's (`BlockCompleteContext`) */
  complete?: boolean
}): JSX.Element {
  const inherited = useContext(BlockCompleteContext)
  const complete = props.complete ?? inherited
  // (the code is a dependency only where it is used: comparing a streaming block's code
  // with the previous one would read all of it on every frame)
  const cut = props.parts ? null : props.code
  const parts = useMemo(
    () => props.parts ?? codeParts(cut ?? '', PART_SIZES.codeLines),
    [props.parts, cut],
  )
  const known = resolveLanguage(props.lang) !== null
  // the code as a whole only once complete: while streaming it changes with every frame
  const full = complete && known ? props.code : null
  const whole = useMemo(() => (full === null ? null : withoutFinalNewline(full)), [full])
  const lines = useHighlight(
    whole !== null && withinHighlightLimits(whole) ? whole : null,
    props.lang,
  )
  const highlighted = useProgressive(lines && lines.length > 0 ? lines : null, parts.length)
  const size = PART_SIZES.codeLines
  const copyText = useRef(props.code)
  copyText.current = props.code
  const t = useT()
  return (
    <div className="md-code">
      <div className="md-code-header">
        <span className="md-code-lang">{props.lang || t('common.plainText')}</span>
        <CopyButton text={() => withoutFinalNewline(copyText.current)} />
      </div>
      <pre className="md-pre" tabIndex={0}>
        <code className="md-code-body">
          {parts.map((part, i) =>
            lines && i < highlighted ? (
              <HighlightedPart
                key={i}
                lines={lines}
                from={i * size}
                to={Math.min(lines.length, (i + 1) * size)}
              />
            ) : (
              <PlainPart key={i} text={i === parts.length - 1 ? withoutFinalNewline(part) : part} />
            ),
          )}
        </code>
      </pre>
    </div>
  )
}
