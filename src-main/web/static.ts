/** Serves the built renderer, and nothing outside its folder. */
import { readFile, stat } from 'node:fs/promises'
import { extname, join, normalize, resolve, sep } from 'node:path'

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.mjs': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.json': 'application/json; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.ico': 'image/x-icon',
  '.woff2': 'font/woff2',
  '.map': 'application/json; charset=utf-8',
}

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
      type: TYPES[extname(target)] ?? 'application/octet-stream',
    }
  } catch {
    return null
  }
}
