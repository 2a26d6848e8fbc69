/**
 * Events from main to every attached renderer (Electron windows, browser tabs). A
 * transport subscribes one `send` per renderer; a renderer that goes away unsubscribes.
 */
import type { AppEvent } from '../../../src-preload/contract/app-events'

export class EventHub {
  private readonly subscribers = new Set<(e: AppEvent) => void>()
  private readonly watchers = new Set<(count: number) => void>()
  private readonly observers = new Set<(e: AppEvent) => void>()

  subscribe(send: (e: AppEvent) => void): () => void {
    this.subscribers.add(send)
    this.changed()
    return () => {
      if (this.subscribers.delete(send)) this.changed()
    }
  }

  /**
   * Listens inside the engine (voice input hears of stopped turns and deleted chats): an observer is not
   * a renderer, so it does not count in `subscriberCount`.
   */
  observe(listener: (e: AppEvent) => void): () => void {
    this.observers.add(listener)
    return () => this.observers.delete(listener)
  }

  publish(event: AppEvent): void {
    for (const observe of [...this.observers]) observe(event)
    for (const send of [...this.subscribers]) {
      try {
        send(event)
      } catch {
        // a renderer that cannot take an event is the transport's problem, never the turn's
      }
    }
  }

  get subscriberCount(): number {
    return this.subscribers.size
  }

  /** Called with the new count whenever a renderer attaches or goes away. */
  watchSubscribers(listener: (count: number) => void): () => void {
    this.watchers.add(listener)
    return () => this.watchers.delete(listener)
  }

  private changed(): void {
    for (const w of [...this.watchers]) w(this.subscribers.size)
  }
}
