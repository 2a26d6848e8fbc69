/**
 * A tool's view (MCP Apps) on its card. Until the user allows views from the tool's server
 * the card says the server wants to show one and offers to allow it (the text result stays
 * shown either way). Once allowed, the view's document is read by the engine and loaded in
 * a frame sandboxed to an opaque origin of its own (`VIEW_SANDBOX`), from the view path
 * the page's policy allows; `ViewHost` speaks to it. The frame is created once per card:
 * the card's updates while a turn streams reach the view as messages, never as a reload.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query'
import { memo, useEffect, useRef, useState, type JSX } from 'react'
import { VIEW_SANDBOX, type ToolViewInfo } from '../../../../../src-preload/contract/mcp-apps'
import type { ToolView } from '../../../state/turn-reducer'
import { usePlatform } from '../../../state/context'
import { call } from '../../../state/queries'
import { useTheme } from '../../../ui/theme'
import { ConfirmOpen, openableUrl, useOpenExternal } from '../../../ui/markdown/links'
import { useT } from '../../../i18n'
import { serverLabel } from '../../../ui/tool-label'
import { toContentBlocks, ViewHost } from './view-host'
import './app-view.css'

export const toolViewsKey = ['mcp.toolViews'] as const

/** the connected tools that have a view (asked again when a server's status changes) */
export function useToolViews(): ToolViewInfo[] {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  useEffect(() => {
    const again = (): void => void client.invalidateQueries({ queryKey: toolViewsKey })
    bridge.on('mcp.status', again)
    return () => bridge.off('mcp.status', again)
  }, [bridge, client])
  return (
    useQuery({
      queryKey: toolViewsKey,
      queryFn: async () => (await call(bridge, 'mcp.toolViews', {})).views,
      staleTime: Infinity,
    }).data ?? []
  )
}

function AllowViews(props: { server: string }): JSX.Element {
  const { bridge } = usePlatform()
  const client = useQueryClient()
  const [error, setError] = useState<string | null>(null)
  const name = serverLabel(props.server)
  const t = useT()
  return (
    <div className="app-view-ask" role="group" aria-label={t('chat.appView.region')}>
      <p>{t('chat.appView.wants')}</p>
      <button
        type="button"
        onClick={() => {
          setError(null)
          call(bridge, 'mcp.update', { name: props.server, allowViews: true }).then(
            () => client.invalidateQueries({ queryKey: toolViewsKey }),
            (e: unknown) => setError(e instanceof Error ? e.message : String(e)),
          )
        }}
      >
        {t('chat.appView.allow', { server: name })}
      </button>
      {error ? <p role="alert">{error}</p> : null}
    </div>
  )
}

/** the tool's result as the view hears it */
function resultOf(t: ToolView): {
  content: unknown[]
  isError: boolean
  structuredContent?: unknown
} {
  const content = toContentBlocks(
    t.parts ?? (t.result !== null ? [{ type: 'text', text: t.result }] : []),
  )
  let structured: unknown
  try {
    const v: unknown = JSON.parse(t.result ?? '')
    if (v && typeof v === 'object' && !Array.isArray(v)) structured = v
  } catch {
    structured = undefined
  }
  return {
    content,
    isError: t.status === 'failed',
    ...(structured ? { structuredContent: structured } : {}),
  }
}

function parsedArgs(raw: string): Record<string, unknown> {
  try {
    const v: unknown = JSON.parse(raw || '{}')
    return v && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {}
  } catch {
    return {}
  }
}

function ViewFrame(props: {
  tool: ToolView
  path: string
  sessionId: string | null
  problems: string[]
}): JSX.Element {
  const { bridge, platform } = usePlatform()
  const kind = platform.kind
  const [theme] = useTheme()
  const openExternal = useOpenExternal()
  const frame = useRef<HTMLIFrameElement>(null)
  const host = useRef<ViewHost | null>(null)
  const [height, setHeight] = useState(160)
  const [problem, setProblem] = useState<string | null>(null)
  const [link, setLink] = useState<{ url: string; done: (opened: boolean) => void } | null>(null)
  const tool = props.tool
  const t = useT()
  const live = useRef({ theme, sessionId: props.sessionId })
  live.current = { theme, sessionId: props.sessionId }

  useEffect(() => {
    const h = new ViewHost({
      post: (m) => frame.current?.contentWindow?.postMessage(m, '*'),
      context: () => ({ theme: live.current.theme, width: frame.current?.clientWidth ?? 600 }),
      platform: kind === 'desktop' ? 'desktop' : 'web',
      version: '1',
      tool: { name: tool.tool, server: tool.server },
      callTool: async (name, args) => {
        const sessionId = live.current.sessionId
        if (!sessionId) throw new Error('This view is not in a chat.')
        return call(bridge, 'mcp.viewCall', {
          sessionId,
          server: tool.server,
          tool: name,
          arguments: args,
        })
      },
      openLink: (url) =>
        new Promise((resolve) => {
          const ok = openableUrl(url)
          if (!ok) return resolve(false)
          setLink({ url: ok, done: resolve })
        }),
      onHeight: setHeight,
      onProblem: setProblem,
    })
    host.current = h
    const onMessage = (e: MessageEvent): void => {
      // only the frame's own window is heard, whatever it claims to be
      if (e.source !== frame.current?.contentWindow || e.source === null) return
      h.receive(e.data)
    }
    window.addEventListener('message', onMessage)
    return () => {
      window.removeEventListener('message', onMessage)
      h.teardown()
      host.current = null
    }
    // one host per frame: the card's updates reach it through the effects below
  }, [bridge, kind, tool.server, tool.tool])

  useEffect(() => host.current?.toolInput(parsedArgs(tool.rawArguments)), [tool.rawArguments])
  useEffect(() => {
    if (tool.result !== null && (tool.status === 'done' || tool.status === 'failed'))
      host.current?.toolResult(resultOf(tool))
  }, [tool.result, tool.status])
  useEffect(() => host.current?.themeChanged(theme), [theme])

  return (
    <div className="app-view">
      {props.problems.length > 0 ? (
        <p className="app-view-note">
          {t('chat.appView.refused', { list: props.problems.join('; ') })}
        </p>
      ) : null}
      <iframe
        ref={frame}
        src={props.path}
        sandbox={VIEW_SANDBOX}
        referrerPolicy="no-referrer"
        title={t('chat.appView.title', { tool: tool.tool, server: serverLabel(tool.server) })}
        style={{ height }}
      />
      {problem ? <p className="app-view-note">{t('chat.appView.problem', { problem })}</p> : null}
      {link ? (
        <ConfirmOpen
          url={link.url}
          open
          onOpenChange={(open) => {
            if (!open) {
              link.done(false)
              setLink(null)
            }
          }}
          onConfirm={() => {
            openExternal(link.url)
            link.done(true)
            setLink(null)
          }}
        />
      ) : null}
    </div>
  )
}

/** The view of a card's tool: asked for once, allowed or not. */
export const AppView = memo(function AppView(props: {
  tool: ToolView
  view: ToolViewInfo
  sessionId: string | null
}): JSX.Element {
  const { bridge } = usePlatform()
  const { server, tool, allowed } = props.view
  const t = useT()
  const [opened, setOpened] = useState<
    { path: string; refused: string[] } | { error: string } | null
  >(null)
  useEffect(() => {
    if (!allowed) return
    let on = true
    call(bridge, 'mcp.openView', { server, tool }).then(
      (r) => on && setOpened(r.status === 'ready' ? { path: r.path, refused: r.refused } : null),
      (e: unknown) => on && setOpened({ error: e instanceof Error ? e.message : String(e) }),
    )
    return () => {
      on = false
    }
  }, [bridge, server, tool, allowed])
  if (!allowed) return <AllowViews server={server} />
  if (!opened) return <p className="app-view-note">{t('chat.appView.loading')}</p>
  if ('error' in opened)
    return (
      <p className="app-view-note" role="alert">
        {opened.error}
      </p>
    )
  return (
    <ViewFrame
      tool={props.tool}
      path={opened.path}
      sessionId={props.sessionId}
      problems={opened.refused}
    />
  )
})
