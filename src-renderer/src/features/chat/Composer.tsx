import { useState, type JSX, type KeyboardEvent } from 'react'
import { useChat } from '../../state'

export function Composer(): JSX.Element {
  const [text, setText] = useState('')
  const running = useChat((s) => s.turn?.running === true)
  const sending = useChat((s) => s.sending)
  const send = useChat((s) => s.send)
  const stop = useChat((s) => s.stop)
  const canSend = text.trim() !== '' && !running && !sending

  const submit = (): void => {
    if (!canSend) return
    const value = text
    setText('')
    void send(value)
  }
  const onKey = (e: KeyboardEvent<HTMLTextAreaElement>): void => {
    if (e.key === 'Enter' && !e.shiftKey && !e.nativeEvent.isComposing) {
      e.preventDefault()
      submit()
    }
  }
  return (
    <form
      className="composer"
      onSubmit={(e) => {
        e.preventDefault()
        submit()
      }}
    >
      <textarea
        aria-label="Message"
        placeholder="Ask anything… (Enter sends, Shift+Enter for a new line)"
        value={text}
        rows={3}
        onChange={(e) => setText(e.target.value)}
        onKeyDown={onKey}
      />
      <div className="composer-actions">
        {running ? (
          <button type="button" className="stop" onClick={() => void stop()}>
            Stop generating
          </button>
        ) : null}
        <button type="submit" disabled={!canSend}>
          Send
        </button>
      </div>
    </form>
  )
}
