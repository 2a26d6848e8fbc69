/**
 * A browser-mode window for the soak: the token exchanged for the cookie as a browser does,
 * then the contract over the WebSocket. A request the connection loses answers `lost` (the
 * window was never told "sent"), as the window's own transport does.
 */
import WebSocket from 'ws'

type Answer = { ok: true; data: unknown } | { ok: false; error: { code: string; message: string } }
interface TurnEnd {
  reason: string
  error?: string
}

export class SoakWindow {
  private next = 1
  private readonly pending = new Map<number, (a: Answer) => void>()
  private readonly ends = new Map<string, TurnEnd>()
  private readonly waiting = new Map<string, (e: TurnEnd | null) => void>()
  open = true

  private constructor(private readonly ws: WebSocket) {
    ws.on('message', (raw: Buffer) => {
      const msg = JSON.parse(raw.toString()) as {
        id?: number
        result?: Answer
        event?: string
        payload?: { type?: string; turnId?: string; reason?: string; error?: { message?: string } }
      }
      if (typeof msg.id === 'number' && msg.result) {
        this.pending.get(msg.id)?.(msg.result)
        this.pending.delete(msg.id)
      } else if (msg.event === 'agent' && msg.payload?.type === 'turn_end' && msg.payload.turnId) {
        const end = {
          reason: msg.payload.reason ?? '?',
          ...(msg.payload.error?.message ? { error: msg.payload.error.message } : {}),
        }
        this.ends.set(msg.payload.turnId, end)
        this.waiting.get(msg.payload.turnId)?.(end)
      }
    })
    ws.on('close', () => {
      this.open = false
      for (const done of this.pending.values())
        done({ ok: false, error: { code: 'lost', message: 'the connection was lost' } })
      this.pending.clear()
      for (const done of this.waiting.values()) done(null)
      this.waiting.clear()
    })
    ws.on('error', () => {})
  }

  static async connect(url: string): Promise<SoakWindow> {
    const res = await fetch(url, { redirect: 'manual' })
    const cookie = res.headers.get('set-cookie')?.split(';')[0]
    if (!cookie) throw new Error(`the token exchange failed: ${res.status}`)
    const base = new URL(url)
    const ws = new WebSocket(`ws://${base.host}/ws`, { headers: { cookie, origin: base.origin } })
    await new Promise<void>((resolve, reject) => {
      ws.once('open', () => resolve())
      ws.once('error', reject)
    })
    return new SoakWindow(ws)
  }

  request(route: string, input: unknown): Promise<Answer> {
    if (!this.open)
      return Promise.resolve({ ok: false, error: { code: 'lost', message: 'not connected' } })
    const id = this.next++
    return new Promise((resolve) => {
      this.pending.set(id, resolve)
      this.ws.send(JSON.stringify({ id, route, input }))
    })
  }

  /** the turn's end, or null when the connection went first or `ms` passed */
  turnEnded(turnId: string, ms: number): Promise<TurnEnd | null> {
    const known = this.ends.get(turnId)
    if (known) return Promise.resolve(known)
    if (!this.open) return Promise.resolve(null)
    return new Promise((resolve) => {
      const timer = setTimeout(() => {
        this.waiting.delete(turnId)
        resolve(null)
      }, ms)
      this.waiting.set(turnId, (e) => {
        clearTimeout(timer)
        this.waiting.delete(turnId)
        resolve(e)
      })
    })
  }

  close(): void {
    this.ws.close()
  }
}
