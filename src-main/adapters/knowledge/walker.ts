/**
 * The files of a source: a file, or every file under a folder, following links to files
 * and folders but never around a loop (a link back into a folder already walked is said,
 * not followed). Hidden files and folders (a name starting with a dot) and `node_modules`
 * are not walked.
 */
import { opendir, realpath, stat } from 'node:fs/promises'
import { join } from 'node:path'

export type Found =
  { path: string; size: number; mtimeMs: number } | { path: string; problem: string }

export function isWalked(name: string): boolean {
  return !name.startsWith('.') && name !== 'node_modules'
}

/** Everything under `root` (or `root` itself, a file); throws when `root` cannot be read. */
export async function walkSource(root: string, onFound: (f: Found) => void): Promise<void> {
  const st = await stat(root)
  if (!st.isDirectory()) {
    onFound({ path: root, size: st.size, mtimeMs: st.mtimeMs })
    return
  }
  const seen = new Set<string>([await realpath(root)])
  await walkFolder(root, seen, onFound)
}

async function walkFolder(
  folder: string,
  seen: Set<string>,
  onFound: (f: Found) => void,
): Promise<void> {
  let dir
  try {
    dir = await opendir(folder)
  } catch (e) {
    onFound({ path: folder, problem: `the folder cannot be read (${codeOf(e)})` })
    return
  }
  const folders: string[] = []
  for await (const entry of dir) {
    if (!isWalked(entry.name)) continue
    const path = join(folder, entry.name)
    if (entry.isFile()) {
      const st = await stat(path).catch(() => null)
      if (st) onFound({ path, size: st.size, mtimeMs: st.mtimeMs })
      continue
    }
    if (entry.isDirectory()) {
      const real = await realpath(path).catch(() => path)
      if (!seen.has(real)) {
        seen.add(real)
        folders.push(path)
      }
      continue
    }
    if (entry.isSymbolicLink()) await followLink(path, seen, folders, onFound)
  }
  for (const f of folders) await walkFolder(f, seen, onFound)
}

async function followLink(
  path: string,
  seen: Set<string>,
  folders: string[],
  onFound: (f: Found) => void,
): Promise<void> {
  let st
  try {
    st = await stat(path)
  } catch (e) {
    const code = codeOf(e)
    onFound({
      path,
      problem:
        code === 'ELOOP'
          ? 'it is a link that leads back to itself (a loop)'
          : code === 'ENOENT'
            ? 'it is a link to something that does not exist'
            : `the link cannot be followed (${code})`,
    })
    return
  }
  if (st.isFile()) {
    onFound({ path, size: st.size, mtimeMs: st.mtimeMs })
    return
  }
  if (!st.isDirectory()) return
  const real = await realpath(path)
  if (seen.has(real)) {
    onFound({ path, problem: `it is a link to a folder already indexed (${real}): not followed` })
    return
  }
  seen.add(real)
  folders.push(path)
}

export function codeOf(e: unknown): string {
  const code = (e as { code?: unknown }).code
  return typeof code === 'string' ? code : e instanceof Error ? e.message : String(e)
}
