import type { JSX } from 'react'

/** A new chat: what Cairn can do, and how to drive it. */
export function EmptyState(): JSX.Element {
  return (
    <div className="empty">
      <h2>What can I help with?</h2>
      <ul>
        <li>Ask anything: answers stream in as they are written, with formatted text and code.</li>
        <li>
          Cairn can use tools — read and edit files in your workspace, run commands, fetch web
          pages, and whatever your MCP servers offer — and asks you before each call.
        </li>
        <li>Stop an answer at any time with Esc or the Stop button.</li>
        <li>
          Type <kbd>/</kbd> for commands: <code>/model</code> switches the model, <code>/new</code>{' '}
          starts over, <code>/help</code> lists them all.
        </li>
      </ul>
    </div>
  )
}
