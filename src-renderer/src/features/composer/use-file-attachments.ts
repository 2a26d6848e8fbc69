/**
 * The files attached to the message being written: added from the "Attach files" button
 * (the system's picker in the desktop app, the page's file input elsewhere), dropped
 * anywhere on the window or pasted (a screenshot, copied files). Each is read by the engine
 * at once, showing as a chip with a progress indicator until it is; a refusal names the
 * file and why, and the other files and the typed text stay.
 */
import { useCallback, useEffect, useRef, useState } from 'react'
import type { AttachmentTaken, Result } from '../../../../src-preload/contract/routes'
import { usePlatform } from '../../state/context'

export interface FileChip {
  key: string
  name: string
  bytes: number
  /** set once the engine has read it */
  taken: AttachmentTaken | null
}

export interface FileAttachments {
  chips: FileChip[]
  /** some file is still being read */
  reading: boolean
  /** the "Attach files" button: the system's picker, or the page's file input */
  choose(): void
  addFiles(files: readonly File[]): void
  remove(key: string): void
  /** what `chat.send` names the files by */
  tokens(): string[]
  clear(): void
  /** the page's file input (hidden; the button opens it) */
  input: {
    ref: React.RefObject<HTMLInputElement | null>
    onChange(e: React.ChangeEvent<HTMLInputElement>): void
  }
}

let nextKey = 0

export function useFileAttachments(say: (error: string) => void): FileAttachments {
  const { platform } = usePlatform()
  const [chips, setChips] = useState<FileChip[]>([])
  const input = useRef<HTMLInputElement | null>(null)

  const read = useCallback(
    (name: string, bytes: number, reading: () => Promise<Result<AttachmentTaken>>): void => {
      const key = `file-${++nextKey}`
      setChips((c) => [...c, { key, name, bytes, taken: null }])
      void reading().then((r) => {
        if (r.ok) {
          setChips((c) => c.map((x) => (x.key === key ? { ...x, taken: r.data } : x)))
        } else {
          setChips((c) => c.filter((x) => x.key !== key))
          say(r.error.message)
        }
      })
    },
    [say],
  )

  const addFiles = useCallback(
    (files: readonly File[]) => {
      for (const f of files) read(f.name || 'pasted image', f.size, () => platform.attachFile(f))
    },
    [platform, read],
  )

  useDropAndPaste(addFiles)

  return {
    chips,
    reading: chips.some((c) => c.taken === null),
    choose: () => {
      if (!platform.pickFiles) return input.current?.click()
      platform
        .pickFiles()
        .then((picked) => picked.forEach((p) => read(p.name, p.bytes, () => p.read())))
        .catch((e: unknown) => say(e instanceof Error ? e.message : String(e)))
    },
    addFiles,
    remove: (key) => setChips((c) => c.filter((x) => x.key !== key)),
    tokens: () => chips.flatMap((c) => (c.taken ? [c.taken.token] : [])),
    clear: () => setChips([]),
    input: {
      ref: input,
      onChange: (e) => {
        addFiles([...(e.target.files ?? [])])
        e.target.value = ''
      },
    },
  }
}

/** Files dropped anywhere on the window, or pasted (a screenshot, copied files). */
function useDropAndPaste(addFiles: (files: readonly File[]) => void): void {
  useEffect(() => {
    const hasFiles = (d: DataTransfer | null): boolean => !!d && [...d.types].includes('Files')
    const over = (e: DragEvent): void => {
      if (!hasFiles(e.dataTransfer)) return
      e.preventDefault()
      if (e.dataTransfer) e.dataTransfer.dropEffect = 'copy'
    }
    const drop = (e: DragEvent): void => {
      if (!hasFiles(e.dataTransfer)) return
      e.preventDefault()
      addFiles([...(e.dataTransfer?.files ?? [])])
    }
    const paste = (e: ClipboardEvent): void => {
      const files = [...(e.clipboardData?.files ?? [])]
      if (files.length === 0) return
      // a copied file or a screenshot: attached, not typed
      e.preventDefault()
      addFiles(files)
    }
    window.addEventListener('dragover', over)
    window.addEventListener('drop', drop)
    window.addEventListener('paste', paste)
    return () => {
      window.removeEventListener('dragover', over)
      window.removeEventListener('drop', drop)
      window.removeEventListener('paste', paste)
    }
  }, [addFiles])
}
