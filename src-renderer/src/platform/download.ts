/** Saves text as a file through the browser's download: a Blob URL and an `<a download>`. */
export function downloadText(
  filename: string,
  mimeType: string,
  content: string,
): Promise<string | null> {
  const url = URL.createObjectURL(new Blob([content], { type: `${mimeType};charset=utf-8` }))
  const a = document.createElement('a')
  a.href = url
  a.download = filename
  a.rel = 'noopener'
  a.style.display = 'none'
  document.body.append(a)
  a.click()
  a.remove()
  // the download has its own reference by now; give it a moment before letting go
  setTimeout(() => URL.revokeObjectURL(url), 10_000)
  // the browser chooses where: the page is not told
  return Promise.resolve(null)
}
