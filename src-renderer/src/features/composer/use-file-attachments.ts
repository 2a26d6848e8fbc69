/**
 * The files attached to the message being written: added from the "Attach files" button
 * (the system's picker in the desktop app, the page's file input elsewhere), dropped
 * anywhere on the window or pasted (a screenshot, copied files). Each is read by the engine
 * at once, showing as a chip with a progress indicator until it is; a refusal names the
 * file and why, and the other files and the typed text stay. The files are the chat's, kept
 * in the live store beside its typed text: opening another chat shows that chat's files,
 * and coming back shows these again; sending takes them with the text.
 */
import { useCallback, useEffect, useRef } from 'react'
import type { AttachmentTaken, Result } from '../../../../src-preload/contract/routes'
import { call } from '../../platform/request'
import { useLive, usePlatform } from '../../state/context'
import { emptyLive, NEW_CHAT, type DraftFile } from '../../state/live-store'
import { useErrorText } from '../../ui/error-text'

export type FileChip = DraftFile

export interface FileAttachments {
  chips: readonly FileChip[]
  /** some file is still being read */
  reading: boolean
  /** the "Attach files" button: the system's picker, or the page's file input */
  choose(): void
  addFiles(files: readonly File[]): void
  remove(key: string): void
  /** a PDF with no text layer: its chip becomes its first pages, drawn as images */
  pagesAsImages(key: string): void
  /** what `chat.send` names the files by */
  tokens(): string[]
  /** the page's file input (hidden; the button opens it) */
  input: {
    ref: React.RefObject<HTMLInputElement | null>
    onChange(e: React.ChangeEvent<HTMLInputElement>): void
  }
}

let nextKey = 0

export function useFileAttachments(say: (error: string) => void): FileAttachments {
  const { platform } = usePlatform()
  const chat = useLive((s) => s.currentId ?? NEW_CHAT)
  const chips = useLive((s) => (s.sessions[chat] ?? emptyLive).files)
  const setFiles = useLive((s) => s.setFiles)
  // a refusal in the window's language, from its code and details
  const errorText = useErrorText()
  const input = useRef<HTMLInputElement | null>(null)

  const read = useCallback(
    (name: string, bytes: number, reading: () => Promise<Result<AttachmentTaken>>): void => {
      // the chat it was attached in, whichever is open when the engine answers
      const key = `file-${++nextKey}`
      setFiles(chat, (c) => [...c, { key, name, bytes, taken: null }])
      void reading().then((r) => {
        if (r.ok) {
          setFiles(chat, (c) => c.map((x) => (x.key === key ? { ...x, taken: r.data } : x)))
        } else {
          setFiles(chat, (c) => c.filter((x) => x.key !== key))
          say(errorText(r.error))
        }
      })
    },
    [say, chat, setFiles, errorText],
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
        .catch((e: unknown) => say(errorText(e)))
    },
    addFiles,
    remove: (key) => setFiles(chat, (c) => c.filter((x) => x.key !== key)),
    pagesAsImages: (key) => {
      const pdf = chips.find((c) => c.key === key)?.taken
      if (!pdf) return
      // read again: the chip shows its progress until the pages replace it
      const put = (taken: AttachmentTaken | null): void =>
        setFiles(chat, (c) => c.map((x) => (x.key === key ? { ...x, taken } : x)))
      put(null)
      call(platform.bridge, 'attachments.pdfPages', { id: pdf.part.id, name: pdf.part.name }).then(
        ({ pages }) =>
          setFiles(chat, (c) =>
            c.flatMap((x) =>
              x.key !== key
                ? [x]
                : pages.map((p) => ({
                    key: `file-${++nextKey}`,
                    name: p.part.name,
                    bytes: p.part.source.bytes,
                    taken: p,
                  })),
            ),
          ),
        (e: unknown) => {
          put(pdf)
          say(errorText(e))
        },
      )
    },
    tokens: () => chips.flatMap((c) => (c.taken ? [c.taken.token] : [])),
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
