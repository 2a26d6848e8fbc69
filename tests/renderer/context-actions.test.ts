/** Keep in context and Undo compaction: a failure is said in the conversation, not in a browser alert. */
import { QueryClient } from '@tanstack/react-query'
import { describe, expect, it, vi } from 'vitest'
import type { CairnBridge } from '../../src-preload/contract/bridge'
import { contextActions } from '../../src-renderer/src/features/chat/context-actions'

const failing = {
  request: async () => ({ ok: false, error: { code: 'not_found', message: 'No such message.' } }),
  on: () => {},
  off: () => {},
} as unknown as CairnBridge

describe('context actions', () => {
  it('report a failed pin or undo through onError, with the reason', async () => {
    const errors: { what: string; error: unknown }[] = []
    const alert = vi.fn()
    vi.stubGlobal('window', { alert })
    const a = contextActions(
      failing,
      new QueryClient(),
      's1',
      () => {},
      (m) => errors.push(m),
    )
    a.pin!('m1', true)
    a.undoCompaction!('sum1')
    await vi.waitFor(() => expect(errors).toHaveLength(2))
    expect(errors.map((e) => [e.what, (e.error as Error).message])).toEqual([
      ['pin', 'No such message.'],
      ['undo', 'No such message.'],
    ])
    expect(alert).not.toHaveBeenCalled()
    vi.unstubAllGlobals()
  })
})
