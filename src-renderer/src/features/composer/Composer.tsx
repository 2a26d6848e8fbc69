/**
 * The message box. Enter sends, Shift+Enter adds a line, Esc stops, Tab completes slash
 * commands and model names. While a turn runs, Send becomes Stop in the same place. A
 * message that could not be sent stays in the box with the reason beside it.
 */
import { useEffect, useRef, useState, type JSX, type KeyboardEvent, type ReactNode } from 'react'
import { useLive, usePlatform } from '../../state/context'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { useModels } from '../../state/queries'
import { isProviderProblem, ProviderSettingsLink } from '../../ui/ProviderSettingsLink'
import type { McpPrompt } from '../../../../src-preload/contract/resources-and-prompts'
import { COMMANDS, parseCommand, SHORTCUTS } from './commands'
import { completeWithPrompts, findPrompt, parsePromptCommand } from './prompt-commands'
import { PromptForm } from './ArgumentForms'
import { useResourcesAndPromptsEvents, useMcpPrompts } from './use-resources-and-prompts'
import { compactNow } from './compact-now'
import { ContextMeter } from './ContextMeter'
import { ModelPicker } from './ModelPicker'
import { ThinkingToggle } from './ThinkingToggle'
import { AttachmentChips } from './AttachmentChips'
import { useResourcePicker } from './use-resource-picker'
import './resources.css'

type Feedback = { kind: 'info' | 'error'; text: string } | { kind: 'help' } | null

function Help(): JSX.Element {
  return (
    <div className="help">
      <p>Commands</p>
      <ul>
        {COMMANDS.map((c) => (
          <li key={c.name}>
            <code>{c.usage}</code> — {c.help}
          </li>
        ))}
      </ul>
      <p>Shortcuts</p>
      <ul>
        {SHORTCUTS.map((s) => (
          <li key={s.keys}>
            <kbd>{s.keys}</kbd> — {s.help}
          </li>
        ))}
      </ul>
    </div>
  )
}

/**
 * What the screen adds to the box: `above` is shown over the text (the voice strip), `controls`
 * in the bar before Send (the microphone).
 */
export interface ComposerSlots {
  above?: ReactNode
  controls?: ReactNode
}

export function Composer(props: ComposerSlots): JSX.Element {
  const key = useLive((s) => s.currentId ?? NEW_CHAT)
  // only what the box shows: the session's live turn changes with every streamed frame
  const draft = useLive((s) => (s.sessions[key] ?? emptyLive).draft)
  const outbox = useLive((s) => (s.sessions[key] ?? emptyLive).outbox)
  const sendError = useLive((s) => (s.sessions[key] ?? emptyLive).sendError)
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const focusTick = useLive((s) => s.focusTick)
  const dialogOpen = useLive((s) => s.approvals.length > 0)
  const send = useLive((s) => s.send)
  const stop = useLive((s) => s.stop)
  const setDraft = useLive((s) => s.setDraft)
  const open = useLive((s) => s.open)
  const setModel = useLive((s) => s.setModel)
  const currentId = useLive((s) => s.currentId)
  const { bridge, client } = usePlatform()
  const busy = running || outbox !== null
  const text = draft
  const [feedback, setFeedback] = useState<Feedback>(null)
  const wantsModels = text.startsWith('/model')
  const models = useModels(wantsModels)
  const box = useRef<HTMLTextAreaElement>(null)
  const picker = useResourcePicker(text, setDraft, () => box.current?.focus())
  useResourcesAndPromptsEvents()
  const prompts = useMcpPrompts(text.startsWith('/'))
  const [promptForm, setPromptForm] = useState<McpPrompt | null>(null)
  const sendPrompt = async (p: McpPrompt, args: Record<string, string>): Promise<void> => {
    setPromptForm(null)
    const attachments = picker.attachments.map((a) => a.ref)
    const ok = await send(`/${p.server}:${p.name}`, {
      prompt: { server: p.server, name: p.name, arguments: args },
      ...(attachments.length > 0 ? { attachments } : {}),
    })
    if (ok) picker.clear()
    box.current?.focus()
  }

  useEffect(() => {
    if (!dialogOpen) box.current?.focus()
  }, [focusTick, key, dialogOpen])
  useEffect(() => setFeedback(null), [key])

  const run = async (): Promise<void> => {
    const wanted = parsePromptCommand(text)
    if (wanted) {
      if (busy) return
      const list = prompts.data ?? (await prompts.refetch()).data
      const p = list ? findPrompt(list.prompts, wanted) : null
      if (!p) {
        return setFeedback({
          kind: 'error',
          text: `No running server offers the prompt /${wanted.server}:${wanted.name}. Tab completes the prompts there are.`,
        })
      }
      setFeedback(null)
      if (p.arguments.length > 0) return setPromptForm(p)
      return sendPrompt(p, {})
    }
    const cmd = parseCommand(text)
    if (!cmd) {
      setFeedback(null)
      if (busy) return
      const attachments = picker.attachments.map((a) => a.ref)
      if (await send(text, attachments.length > 0 ? { attachments } : {})) picker.clear()
      return
    }
    setDraft('')
    switch (cmd.kind) {
      case 'new':
        open(null)
        return setFeedback(null)
      case 'stop':
        await stop()
        return setFeedback(
          running
            ? { kind: 'info', text: 'Stopped.' }
            : { kind: 'info', text: 'Nothing is running.' },
        )
      case 'help':
        return setFeedback({ kind: 'help' })
      case 'compact':
        if (running) return setFeedback({ kind: 'info', text: 'Wait for the answer to finish.' })
        setFeedback({ kind: 'info', text: 'Summarizing the earlier conversation…' })
        return setFeedback(await compactNow(bridge, client, currentId))
      case 'model': {
        if (!cmd.name) {
          const list = models.data?.models.length
            ? ` Available: ${models.data.models.join(', ')}.`
            : ''
          return setFeedback({ kind: 'info', text: `Usage: /model <name>.${list}` })
        }
        const error = await setModel(cmd.name)
        return setFeedback(
          error
            ? { kind: 'error', text: `Could not switch the model: ${error}` }
            : { kind: 'info', text: `This chat now uses ${cmd.name}.` },
        )
      }
      case 'unknown':
        setDraft(text)
        return setFeedback({
          kind: 'error',
          text: `There is no command /${cmd.name}. Type /help for the commands.`,
        })
    }
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return
    if (picker.onKeyDown(e)) {
      e.preventDefault()
      return
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      if (text.trim()) void run()
    } else if (e.key === 'Escape' && running) {
      e.preventDefault()
      void stop()
    } else if (e.key === 'Tab' && !e.shiftKey && text.startsWith('/')) {
      const c = completeWithPrompts(text, models.data?.models ?? [], prompts.data?.prompts ?? [])
      if (!c) return
      e.preventDefault()
      setDraft(c.text)
      setFeedback(c.candidates.length > 1 ? { kind: 'info', text: c.candidates.join('  ') } : null)
    }
  }

  const error = sendError
  return (
    <form
      className="composer"
      aria-label="Compose"
      // while an approval dialog is open nothing typed here can reach it or send
      inert={dialogOpen}
      onSubmit={(e) => {
        e.preventDefault()
        if (running) void stop()
        else if (text.trim()) void run()
      }}
    >
      <AttachmentChips attachments={picker.attachments} onRemove={picker.remove} />
      {promptForm ? (
        <PromptForm
          prompt={promptForm}
          onUse={(args) => void sendPrompt(promptForm, args)}
          onCancel={() => {
            setPromptForm(null)
            box.current?.focus()
          }}
        />
      ) : (
        picker.popup
      )}
      {props.above}
      <textarea
        ref={box}
        {...picker.boxProps}
        aria-label="Message"
        aria-describedby={error ? 'composer-error' : undefined}
        aria-invalid={error ? true : undefined}
        placeholder="Ask anything — Enter sends, Shift+Enter adds a line, / for commands, @ attaches a resource"
        value={text}
        rows={Math.min(12, Math.max(2, text.split('\n').length))}
        onChange={(e) => {
          setDraft(e.target.value)
          picker.onCaret(e.target.value, e.target.selectionStart)
        }}
        onSelect={(e) => picker.onCaret(e.currentTarget.value, e.currentTarget.selectionStart)}
        onKeyDown={onKey}
      />
      <div className="composer-bar">
        <ModelPicker />
        <ThinkingToggle />
        <ContextMeter sessionId={currentId} />
        <div className="composer-feedback" role="status">
          {error ? (
            <>
              <span id="composer-error" className="error">
                Not sent: {error.message}
              </span>
              {isProviderProblem(error) ? <ProviderSettingsLink /> : null}
            </>
          ) : feedback?.kind === 'help' ? (
            <Help />
          ) : feedback ? (
            <span className={feedback.kind === 'error' ? 'error' : 'meta'}>{feedback.text}</span>
          ) : null}
        </div>
        {props.controls}
        {running ? (
          <button type="button" className="stop" onClick={() => void stop()}>
            Stop generating
          </button>
        ) : (
          <button type="submit" className="primary send" disabled={!text.trim() || outbox !== null}>
            Send
          </button>
        )}
      </div>
    </form>
  )
}
