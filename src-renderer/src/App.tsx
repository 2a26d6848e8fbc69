import type { JSX } from 'react'

export function App(): JSX.Element {
  return (
    <main>
      <h1>Cairn</h1>
      <p>The chat interface arrives with the bridge issue. Until then, use the `cairn` CLI.</p>
    </main>
  )
}
