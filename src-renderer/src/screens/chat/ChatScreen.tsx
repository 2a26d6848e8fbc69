/**
 * The chat screen: the header (title, assistant picker), the conversation (or, for a new chat,
 * the onboarding or the intro), the plan and the composer with voice input.
 */
import type { JSX } from 'react'
import { ConversationView } from '../../features/chat/ConversationView'
import { TodoList } from '../../features/chat/TodoList'
import { ChatComposer } from './ChatComposer'
import { ChatHeader } from './ChatHeader'
import { ChatStart } from './ChatStart'

export function ChatScreen(): JSX.Element {
  return (
    <>
      <ChatHeader />
      <main className="chat">
        <ConversationView empty={<ChatStart />} />
        <div className="dock">
          <TodoList />
          <ChatComposer />
        </div>
      </main>
    </>
  )
}
