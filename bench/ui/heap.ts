/** The renderer's JS heap after a full garbage collection, through CDP. */
import type { CDPSession } from 'playwright-core'

export interface HeapSample {
  /** JSHeapUsedSize (bytes) */
  used: number
  /** DOM nodes alive in the renderer (Performance.getMetrics `Nodes`) */
  nodes: number
}

export async function heapAfterGc(cdp: CDPSession): Promise<HeapSample> {
  await cdp.send('Performance.enable')
  // twice: the first pass runs finalizers that free more on the second
  await cdp.send('HeapProfiler.collectGarbage')
  await cdp.send('HeapProfiler.collectGarbage')
  const { metrics } = await cdp.send('Performance.getMetrics')
  const value = (name: string): number => metrics.find((m) => m.name === name)?.value ?? NaN
  return { used: value('JSHeapUsedSize'), nodes: value('Nodes') }
}
