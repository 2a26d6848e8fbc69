/**
 * The message box. Enter sends, Shift+Enter adds a line, Esc stops, Tab completes slash
 * commands and model names. While a turn runs, Send becomes Stop in the same place. A
 * message that could not be sent stays in the box with the reason beside it.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type JSX,
  type KeyboardEvent,
  type ReactNode,
} from 'react'
import { useT } from '../../i18n'
import { useLive } from '../../state/context'
import { emptyLive, NEW_CHAT } from '../../state/live-store'
import { useModels } from '../../state/queries'
import { parseCommand } from './commands'
import { completeWithPrompts, parsePromptCommand } from './prompt-commands'
import { PromptForm } from './ArgumentForms'
import { useResourcesAndPromptsEvents, useMcpPrompts } from './use-resources-and-prompts'
import { ComposerFeedback, COMPOSER_ERROR_ID, type Feedback } from './ComposerFeedback'
import { ContextMeter } from './ContextMeter'
import { ModelPicker } from './ModelPicker'
import { ThinkingToggle } from './ThinkingToggle'
import { AttachmentChips, FileChips } from './AttachmentChips'
import { useFileAttachments } from './use-file-attachments'
import { useResourcePicker } from './use-resource-picker'
import { useSendMessage } from './use-send-message'
import { useSlashCommands } from './use-slash-commands'
import './resources.css'

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
  const text = useLive((s) => (s.sessions[key] ?? emptyLive).draft)
  const outbox = useLive((s) => (s.sessions[key] ?? emptyLive).outbox)
  const error = useLive((s) => (s.sessions[key] ?? emptyLive).sendError)
  const running = useLive((s) => (s.currentId ? s.running[s.currentId] !== undefined : false))
  const focusTick = useLive((s) => s.focusTick)
  const dialogOpen = useLive((s) => s.approvals.length > 0)
  const stop = useLive((s) => s.stop)
  const setDraft = useLive((s) => s.setDraft)
  const currentId = useLive((s) => s.currentId)
  const busy = running || outbox !== null
  const [feedback, setFeedback] = useState<Feedback>(null)
  const models = useModels(text.startsWith('/model'))
  const t = useT()
  const box = useRef<HTMLTextAreaElement>(null)
  const focusBox = (): void => box.current?.focus()
  const picker = useResourcePicker(text, setDraft, focusBox)
  useResourcesAndPromptsEvents()
  const prompts = useMcpPrompts(text.startsWith('/'))
  const refused = useCallback((text: string) => setFeedback({ kind: 'error', text }), [])
  const files = useFileAttachments(refused)
  const sending = useSendMessage(picker, files, focusBox)
  const hasFiles = files.chips.length > 0
  const canSend = (text.trim() !== '' || hasFiles) && !files.reading && outbox === null
  const runCommand = useSlashCommands(setFeedback, models.data?.models ?? [])

  useEffect(() => {
    if (!dialogOpen) box.current?.focus()
  }, [focusTick, key, dialogOpen])
  useEffect(() => setFeedback(null), [key])

  const run = async (): Promise<void> => {
    const wanted = parsePromptCommand(text)
    if (wanted) return busy ? undefined : sending.runPrompt(wanted, prompts, setFeedback)
    const cmd = parseCommand(text)
    if (cmd) return runCommand(cmd, text)
    setFeedback(null)
    if (!busy) await sending.sendText(text)
  }

  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.nativeEvent.isComposing) return
    if (picker.onKeyDown(e)) {
      e.preventDefault()
      return
    }
    if (e.key === 'Enter' && !e.shiftKey) {
      e.preventDefault()
      if (canSend) void run()
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

  const { promptForm } = sending
  return (
    <form
      className="composer"
      aria-label={t('composer.compose')}
      // while an approval dialog is open nothing typed here can reach it or send
      inert={dialogOpen}
      onSubmit={(e) => {
        e.preventDefault()
        if (running) void stop()
        else if (canSend) void run()
      }}
    >
      <FileChips
        chips={files.chips}
        onRemove={files.remove}
        onPagesAsImages={files.pagesAsImages}
      />
      <AttachmentChips attachments={picker.attachments} onRemove={picker.remove} />
      {promptForm ? (
        <PromptForm
          prompt={promptForm}
          onUse={(args) => void sending.sendPrompt(promptForm, args)}
          onCancel={sending.closePromptForm}
        />
      ) : (
        picker.popup
      )}
      {props.above}
      <textarea
        ref={box}
        {...picker.boxProps}
        aria-label={t('composer.message')}
        aria-describedby={error ? COMPOSER_ERROR_ID : undefined}
        aria-invalid={error ? true : undefined}
        placeholder={t('composer.placeholder')}
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
        <button type="button" className="attach-files" onClick={files.choose}>
          {t('composer.attachFiles')}
        </button>
        <input
          ref={files.input.ref}
          type="file"
          multiple
          hidden
          aria-label={t('composer.filesToAttach')}
          onChange={files.input.onChange}
        />
        <ModelPicker />
        <ThinkingToggle />
        <ContextMeter sessionId={currentId} />
        <ComposerFeedback error={error} feedback={feedback} />
        {props.controls}
        {running ? (
          <button type="button" className="stop" onClick={() => void stop()}>
            {t('composer.stop')}
          </button>
        ) : (
          <button type="submit" className="primary send" disabled={!canSend}>
            {t('composer.send')}
          </button>
        )}
      </div>
    </form>
  )
}
