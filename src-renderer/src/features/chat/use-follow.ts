/**
 * Following the stream: the list stays at its end while an answer grows, until the user
 * scrolls up (wheel, keys, the scroll bar, touch, or a jump up of more than a screen).
 * Back at the end, or after "Jump to latest" or a new message, it follows again.
 *
 * Growth never stops it: an answer can grow by more than a screen between two frames,
 * which a distance-from-the-end rule would take for the user leaving.
 */
import { useCallback, useEffect, useRef, useState } from 'react'

const SCROLL_KEYS = new Set(['PageUp', 'ArrowUp', 'Home'])
/** how long after an input a scroll up counts as the user's */
const INPUT_MS = 600

export interface Follow {
  /** give this to the list as its scroller ref */
  scrollerRef: (el: HTMLElement | Window | null) => void
  /** keeps the end in view, if following */
  stick(): void
  /** follows again (and goes to the end) */
  follow(): void
  /** the list reports whether its end is in view */
  onAtBottom(atBottom: boolean): void
  isFollowing(): boolean
  /** stops following, as if the user had scrolled up (a search result is on screen) */
  unfollow(): void
  /** the user left the end: offer "Jump to latest" */
  detached: boolean
}

export function useFollow(resetKey: string): Follow {
  const [scroller, setScroller] = useState<HTMLElement | null>(null)
  const following = useRef(true)
  const [detached, setDetached] = useState(false)

  const stick = useCallback(() => {
    if (following.current && scroller) scroller.scrollTop = scroller.scrollHeight
  }, [scroller])
  const follow = useCallback(() => {
    following.current = true
    setDetached(false)
    if (scroller) scroller.scrollTop = scroller.scrollHeight
  }, [scroller])
  const unfollow = useCallback(() => {
    if (!following.current) return
    following.current = false
    setDetached(true)
  }, [])

  useEffect(() => {
    following.current = true
    setDetached(false)
  }, [resetKey])

  useEffect(
    () => (scroller ? watchUserScroll(scroller, unfollow) : undefined),
    [scroller, unfollow],
  )

  const scrollerRef = useCallback((el: HTMLElement | Window | null) => {
    setScroller(el instanceof HTMLElement ? el : null)
  }, [])
  const onAtBottom = useCallback((atBottom: boolean) => {
    if (atBottom && !following.current) {
      following.current = true
      setDetached(false)
    }
  }, [])
  const isFollowing = useCallback(() => following.current, [])
  return { scrollerRef, stick, follow, unfollow, onAtBottom, isFollowing, detached }
}

/**
 * Calls `unfollow` when the user scrolls up (wheel, keys, the scroll bar, touch), or
 * anything jumps up by more than a screen; not for the list's own small corrections or
 * growth below. Returns what stops watching.
 */
function watchUserScroll(scroller: HTMLElement, unfollow: () => void): () => void {
  let inputAt = -Infinity
  let dragging = false
  let lastTop = scroller.scrollTop
  const input = (): void => void (inputAt = performance.now())
  const onWheel = (e: WheelEvent): void => {
    if (e.deltaY < 0) unfollow()
  }
  const onKey = (e: KeyboardEvent): void => {
    if (SCROLL_KEYS.has(e.key) || (e.key === ' ' && e.shiftKey)) {
      input()
      unfollow()
    }
  }
  const onPointerDown = (e: PointerEvent): void => {
    // the scroll bar belongs to the scroller itself
    if (e.target === scroller) dragging = true
  }
  const onPointerUp = (): void => {
    if (dragging) input()
    dragging = false
  }
  const onScroll = (): void => {
    const top = scroller.scrollTop
    const up = top < lastTop - 1
    const byUser = dragging || performance.now() - inputAt < INPUT_MS
    // a jump far up with no input seen (a script, assistive technology) counts too; the
    // list's own small corrections, and growth below, do not
    if ((up && byUser) || lastTop - top > scroller.clientHeight) {
      unfollow()
    }
    lastTop = top
  }
  scroller.addEventListener('wheel', onWheel, { passive: true })
  scroller.addEventListener('keydown', onKey)
  scroller.addEventListener('pointerdown', onPointerDown)
  window.addEventListener('pointerup', onPointerUp)
  scroller.addEventListener('touchmove', input, { passive: true })
  scroller.addEventListener('scroll', onScroll, { passive: true })
  return () => {
    scroller.removeEventListener('wheel', onWheel)
    scroller.removeEventListener('keydown', onKey)
    scroller.removeEventListener('pointerdown', onPointerDown)
    window.removeEventListener('pointerup', onPointerUp)
    scroller.removeEventListener('touchmove', input)
    scroller.removeEventListener('scroll', onScroll)
  }
}
