/** Serves the built renderer, and nothing outside its folder. */
import { readFile, stat } from 'node:fs/promises'
import { join, normalize, resolve, sep } from 'node:path'
import { mimeType } from '../services/host/page-policy'

export async function readStatic(
  root: string,
  urlPath: string,
): Promise<{ body: Buffer; type: string } | null> {
  let path: string
  try {
    path = decodeURIComponent(urlPath)
  } catch {
    return null
  }
  if (path.includes('\0')) return null
  const base = resolve(root)
  const file = resolve(base, normalize(`.${path === '/' ? '/index.html' : path}`))
  if (file !== base && !file.startsWith(base + sep)) return null
  try {
    const s = await stat(file)
    const target = s.isDirectory() ? join(file, 'index.html') : file
    return {
      body: await readFile(target),
      type: mimeType(target),
    }
  } catch {
    return null
  }
}
