/**
 * The little of the DOM that the in-page code of the benchmark uses. The bench compiles
 * with Node's types (no DOM lib), so functions that run in the page start with
 * `const w = globalThis as unknown as PageGlobals`. Types only: nothing here reaches the
 * page, where these functions run as their source text.
 */

export interface LongTask {
  /** performance.now() of its start */
  start: number
  duration: number
}

/** Frames seen by a requestAnimationFrame loop between `start` and `end` (performance.now()). */
export interface FrameWindow {
  start: number
  end: number
  /** time between consecutive frames (ms) */
  deltas: number[]
  /** when each of those frames ran (performance.now()): deltas[i] ended at times[i] */
  times: number[]
  /** main-thread tasks over 50 ms that started in the window */
  longTasks: LongTask[]
}

/** When a text showed up in the page (performance.now()). */
export interface TextSeen {
  /** a MutationObserver saw it in the DOM */
  seenAt: number
  /** the animation frame after that */
  frameAt: number
  /** the first frame where it was within the conversation's visible area (null: not in ~5 s) */
  visibleAt: number | null
  timeOrigin: number
}

export interface Probe {
  longTasks: LongTask[]
  startFrames(): void
  /** the frames up to `until` (performance.now(); default: now) */
  stopFrames(until?: number): FrameWindow
  /** resolves when `text` under an element matching `scope` is on screen (or ~5 s after it appeared) */
  watchText(text: string, scope: string): Promise<TextSeen>
  /** `*` under `selector` */
  countNodes(selector: string): number
}

export interface PageRect {
  top: number
  bottom: number
}

export interface PageNode {
  readonly nodeType: number
  readonly textContent: string | null
  readonly parentElement: PageElement | null
  readonly isConnected: boolean
}

export interface PageElement extends PageNode {
  readonly children: { length: number; [i: number]: PageElement }
  closest(selector: string): PageElement | null
  getBoundingClientRect(): PageRect
  querySelectorAll(selector: string): { length: number; [i: number]: PageElement }
  getAttribute(name: string): string | null
  click(): void
  scrollTop: number
  readonly scrollHeight: number
  readonly clientHeight: number
}

export interface PageMutation {
  readonly type: string
  readonly target: PageNode
  readonly addedNodes: { length: number; [i: number]: PageNode }
}

export interface PageObserver {
  observe(target: PageNode, options: Record<string, boolean>): void
  disconnect(): void
}

export interface PerformanceEntryLike {
  startTime: number
  duration: number
}

export interface PageGlobals {
  __cairnBench?: Probe
  __name?: (f: unknown) => unknown
  performance: { now(): number; readonly timeOrigin: number }
  requestAnimationFrame(cb: (t: number) => void): number
  document: {
    body: PageElement
    querySelector(selector: string): PageElement | null
    querySelectorAll(selector: string): { length: number; [i: number]: PageElement }
  }
  location: { hash: string }
  MutationObserver: new (cb: (records: PageMutation[]) => void) => PageObserver
  PerformanceObserver: new (cb: (list: { getEntries(): PerformanceEntryLike[] }) => void) => {
    observe(options: { type: string; buffered?: boolean }): void
  }
}
