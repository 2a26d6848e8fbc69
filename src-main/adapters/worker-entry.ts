import { fileURLToPath } from 'node:url'

/**
 * A worker thread's code: the built `<built>.js` beside the host's `index.js` (the file
 * that starts it may be bundled into a chunk one folder below it), taken from
 * `app.asar.unpacked` in the packaged app (a worker thread cannot load from the archive);
 * or, when the starting file runs as source (the tests), `source` (relative to it) loaded
 * through tsx's loader. `here`: the starting file's `import.meta.url`.
 */
export function workerEntry(
  here: string,
  built: string,
  source: string,
): { code: string; eval: boolean } {
  if (!here.endsWith('.ts')) {
    const dir = new URL('.', here)
    const folder = dir.pathname.split('/').at(-2)
    const base = folder === 'assets' || folder === 'chunks' ? new URL('..', dir) : dir
    const file = fileURLToPath(new URL(`${built}.js`, base))
    return { code: file.replace(/([\\/])app\.asar([\\/])/, '$1app.asar.unpacked$2'), eval: false }
  }
  const url = JSON.stringify(new URL(source, here).href)
  return {
    code: `import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${url}) })`,
    eval: true,
  }
}
