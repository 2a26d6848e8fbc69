/**
 * Whether a model fits this machine's memory, said before it is loaded and with the figures:
 * for the runtime (from llama.cpp's estimate of the model and its smallest context) and for
 * the hub's search results (from the file's size).
 */

const GB = 1024 ** 3

/** A byte count as people read it: `512 MB`, `4.2 GB`. */
export function formatBytes(bytes: number): string {
  if (bytes >= GB) return `${(bytes / GB).toFixed(1)} GB`
  if (bytes >= 1024 ** 2) return `${Math.round(bytes / 1024 ** 2)} MB`
  if (bytes >= 1024) return `${Math.round(bytes / 1024)} KB`
  return `${bytes} bytes`
}

/** A rough need for a model file: its weights, plus a quarter for the context and the runtime. */
export function estimatedNeed(fileBytes: number): number {
  return Math.round(fileBytes * 1.25) + 256 * 1024 ** 2
}

/** Whether a file of this size would load on a machine with `totalBytes` of memory. */
export function fitsMemory(fileBytes: number, totalBytes: number): boolean {
  return estimatedNeed(fileBytes) <= totalBytes * 0.8
}

/**
 * What to say when `need` bytes do not fit in what is available now; null when they do.
 * Memory that others hold may be freed, so the machine's total is named too.
 */
export function memoryError(
  model: string,
  need: number,
  availableBytes: number,
  totalBytes: number,
): string | null {
  if (need <= availableBytes) return null
  const where =
    need > totalBytes
      ? `this machine has ${formatBytes(totalBytes)} in all`
      : `${formatBytes(availableBytes)} is free now (of ${formatBytes(totalBytes)}); close other programs and try again, or`
  return (
    `The model ${model} needs about ${formatBytes(need)} of memory to load, and ${where}` +
    `${need > totalBytes ? '; ' : ' '}choose a smaller model (fewer parameters, or a smaller quantization such as Q4_K_M).`
  )
}
