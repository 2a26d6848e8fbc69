/** What is said when a local model does not fit the memory, before it is loaded. */
import { describe, expect, it } from 'vitest'
import { fitsMemory, formatBytes, memoryError } from '../../src-main/core/local-models/memory'

const GB = 1024 ** 3

describe('local model memory', () => {
  it('fits: none when the need is within what is free', () => {
    expect(memoryError('m.gguf', 2 * GB, 3 * GB, 8 * GB)).toBeNull()
  })

  it('more than is free now: the figures, and closing programs may help', () => {
    expect(memoryError('m.gguf', 5.2 * GB, 3.1 * GB, 8 * GB)).toBe(
      'The model m.gguf needs about 5.2 GB of memory to load, and 3.1 GB is free now (of 8.0 GB); close other programs and try again, or choose a smaller model (fewer parameters, or a smaller quantization such as Q4_K_M).',
    )
  })

  it('more than the machine has: a smaller model is the only way', () => {
    expect(memoryError('big.gguf', 40 * GB, 6 * GB, 16 * GB)).toMatch(
      /needs about 40\.0 GB of memory to load, and this machine has 16\.0 GB in all; choose a smaller model/,
    )
  })

  it('a file fits when its need is within 80 % of the memory', () => {
    expect(fitsMemory(1 * GB, 8 * GB)).toBe(true)
    expect(fitsMemory(6 * GB, 8 * GB)).toBe(false)
    expect(formatBytes(1_185_376)).toBe('1 MB')
  })
})
