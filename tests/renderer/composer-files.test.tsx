// @vitest-environment jsdom
/**
 * Files in the composer against the test platform: the page's file input (browser mode's
 * "Attach files"), a pasted screenshot and a dropped file become chips in the list
 * "Attachments" (a progress indicator while the engine reads them), a refusal names the file
 * and keeps the text and the other chips, a message of files alone is sent with their
 * tokens, and "Remove <name>" takes one away. The sent message's files show as a thumbnail
 * that opens large (Esc closes) and a document card whose extracted text can be shown.
 */
import { act, cleanup, fireEvent, screen, waitFor, within } from '@testing-library/react'
import userEvent from '@testing-library/user-event'
import { afterEach, describe, expect, it } from 'vitest'
import type { AttachmentPart } from '../../src-preload/contract/dto'
import type { AttachmentTaken } from '../../src-preload/contract/routes'
import { AttachedFiles } from '../../src-renderer/src/features/chat/rows/AttachedFiles'
import { Composer } from '../../src-renderer/src/features/composer/Composer'
import { renderWithApp } from './support/render-app'
import { RouteFailure } from './support/test-platform'

afterEach(cleanup)

const PIXEL = 'data:image/webp;base64,UklGRiQAAABXRUJQVlA4IBgAAAAwAQCdASoBAAEAAwA0JaQAA3AA/vuUAAA='

function part(name: string, kind: 'image' | 'document'): AttachmentPart {
  const id = (kind === 'image' ? 'a' : 'b').repeat(64)
  return {
    type: 'attachment',
    id,
    name,
    kind,
    mediaType: kind === 'image' ? 'image/jpeg' : 'application/pdf',
    bytes: 2048,
    source: {
      mediaType: kind === 'image' ? 'image/png' : 'application/pdf',
      bytes: 4096,
      sha256: id,
    },
    ...(kind === 'image' ? { width: 1600, height: 900 } : { pages: 3, chars: 12345 }),
  }
}

/** `attachments.add` answering by the file's name: `bad.pdf` is refused */
function adding(): (input: unknown) => AttachmentTaken {
  let n = 0
  return (input) => {
    const { name } = input as { name: string }
    if (name === 'bad.pdf')
      throw new RouteFailure(
        'attachment_refused',
        'bad.pdf cannot be attached (PDF): it is damaged.',
      )
    const kind = name.endsWith('.png') ? 'image' : 'document'
    return {
      token: `tok-${++n}`,
      part: part(name, kind),
      thumbnail: kind === 'image' ? PIXEL : null,
    }
  }
}

const box = () => screen.getByRole('textbox', { name: 'Message' })
/** files chosen in the page's file input (browser mode's "Attach files") */
const choose = (file: File): void => {
  fireEvent.change(screen.getByLabelText('Files to attach'), { target: { files: [file] } })
}
const chips = () => screen.getByRole('list', { name: 'Attachments' })

describe('files in the composer', () => {
  it('attaches from the file input, a paste and a drop; a refusal keeps the rest; files alone send', async () => {
    const app = renderWithApp(<Composer />, {
      'attachments.add': adding(),
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    const user = userEvent.setup()
    await user.type(box(), 'keep me')
    choose(new File([new Uint8Array([1, 2, 3])], 'report.pdf', { type: 'application/pdf' }))
    await within(chips()).findByText('report.pdf')
    // a screenshot pasted into the box
    const shot = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' })
    fireEvent.paste(box(), { clipboardData: { files: [shot], types: ['Files'] } })
    await within(chips()).findByText('shot.png')
    // a damaged file dropped on the window: refused, naming it; the rest stays
    const bad = new File([new Uint8Array([1])], 'bad.pdf')
    fireEvent.drop(box(), { dataTransfer: { files: [bad], types: ['Files'] } })
    await screen.findByText(/bad\.pdf cannot be attached \(PDF\): it is damaged\./)
    expect(within(chips()).queryByText('bad.pdf')).toBeNull()
    expect(within(chips()).getAllByRole('listitem')).toHaveLength(2)
    expect((box() as HTMLTextAreaElement).value).toBe('keep me')
    expect(chips().querySelector('img.chip-thumb')?.getAttribute('src')).toBe(PIXEL)
    expect(within(chips()).getByText(/PDF · 4 KB · 3 pages/)).toBeTruthy()
    await user.click(screen.getByRole('button', { name: 'Remove shot.png' }))
    expect(within(chips()).queryByText('shot.png')).toBeNull()
    await user.clear(box())
    // files alone are a message
    await user.click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toEqual({
        text: '',
        files: ['tok-1'],
      }),
    )
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull())
  })

  it('shows a progress indicator while the engine reads a file, and Send waits for it', async () => {
    let finish!: (t: AttachmentTaken) => void
    renderWithApp(<Composer />, {
      'attachments.add': () => new Promise<AttachmentTaken>((r) => (finish = r)),
    })
    choose(new File(['x'], 'big.pdf'))
    expect(await screen.findByRole('progressbar', { name: 'Reading big.pdf' })).toBeTruthy()
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(true)
    await waitFor(() => expect(finish).toBeTypeOf('function'))
    await act(async () =>
      finish({ token: 't', part: part('big.pdf', 'document'), thumbnail: null }),
    )
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull())
    expect((screen.getByRole('button', { name: 'Send' }) as HTMLButtonElement).disabled).toBe(false)
  })
})

describe('files are the chat’s', () => {
  it('opening another chat shows its own files; coming back shows these, and they send', async () => {
    const app = renderWithApp(<Composer />, {
      'attachments.add': adding(),
      'sessions.get': () => {
        throw new RouteFailure('not_found', 'no such chat in this test')
      },
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    const live = app.env.live
    await act(async () => live.getState().open('s1'))
    await userEvent.setup().type(box(), 'for chat one')
    choose(new File([new Uint8Array([1])], 'report.pdf'))
    await within(chips()).findByText('report.pdf')
    await act(async () => live.getState().open('s2'))
    expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull()
    expect((box() as HTMLTextAreaElement).value).toBe('')
    await act(async () => live.getState().open('s1'))
    expect(within(chips()).getByText('report.pdf')).toBeTruthy()
    expect((box() as HTMLTextAreaElement).value).toBe('for chat one')
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toMatchObject({
        text: 'for chat one',
        files: ['tok-1'],
        sessionId: 's1',
      }),
    )
    await waitFor(() => expect(screen.queryByRole('list', { name: 'Attachments' })).toBeNull())
  })

  it('a refused message gets its files back with its text', async () => {
    renderWithApp(<Composer />, {
      'attachments.add': adding(),
      'chat.send': () => {
        throw new RouteFailure(
          'model_cannot_see',
          'm cannot see images: pick a vision model or remove the image (shot.png).',
        )
      },
    })
    const shot = new File([new Uint8Array([137, 80, 78, 71])], 'shot.png', { type: 'image/png' })
    fireEvent.paste(box(), { clipboardData: { files: [shot], types: ['Files'] } })
    await within(chips()).findByText('shot.png')
    await userEvent.setup().type(box(), 'what is this?{Enter}')
    await screen.findByText(/m cannot see images/)
    expect(within(chips()).getByText('shot.png')).toBeTruthy()
    expect((box() as HTMLTextAreaElement).value).toBe('what is this?')
  })
})

describe('a PDF with no text layer', () => {
  it('says so on its chip, and "Send pages as images" replaces it with its pages', async () => {
    const scan: AttachmentPart = { ...part('scan.pdf', 'document'), chars: 0, noText: true }
    const page = (n: number): AttachmentTaken => ({
      token: `page-${n}`,
      part: { ...part(`scan.pdf, page ${n}`, 'image'), id: String(n).repeat(64) },
      thumbnail: PIXEL,
    })
    const app = renderWithApp(<Composer />, {
      'attachments.add': () => ({ token: 'scan', part: scan, thumbnail: null }),
      'attachments.pdfPages': () => ({ pages: [page(1), page(2)] }),
      'chat.send': () => ({ sessionId: 's1', turnId: 't1' }),
    })
    choose(new File([new Uint8Array([1])], 'scan.pdf'))
    await within(chips()).findByText(/no text found/)
    await userEvent
      .setup()
      .click(screen.getByRole('button', { name: 'Send the first pages of scan.pdf as images' }))
    await within(chips()).findByText('scan.pdf, page 2')
    expect(within(chips()).queryByText('scan.pdf')).toBeNull()
    expect(app.platform.requests.find((r) => r.route === 'attachments.pdfPages')?.input).toEqual({
      id: scan.id,
      name: 'scan.pdf',
    })
    await userEvent.setup().click(screen.getByRole('button', { name: 'Send' }))
    await waitFor(() =>
      expect(app.platform.requests.find((r) => r.route === 'chat.send')?.input).toMatchObject({
        files: ['page-1', 'page-2'],
      }),
    )
  })

  it('a refusal keeps the PDF and says why', async () => {
    const scan: AttachmentPart = { ...part('scan.pdf', 'document'), chars: 0, noText: true }
    renderWithApp(<Composer />, {
      'attachments.add': () => ({ token: 'scan', part: scan, thumbnail: null }),
      'attachments.pdfPages': () => {
        throw new RouteFailure(
          'attachment_refused',
          "scan.pdf's pages cannot be sent as images: it is damaged.",
        )
      },
    })
    choose(new File([new Uint8Array([1])], 'scan.pdf'))
    await screen.findByText(/no text found/, {}, { timeout: 10_000 })
    await userEvent
      .setup()
      .click(
        await screen.findByRole('button', { name: 'Send the first pages of scan.pdf as images' }),
      )
    await screen.findByText(/pages cannot be sent as images/)
    expect(within(chips()).getByText('scan.pdf')).toBeTruthy()
    await waitFor(() => expect(screen.queryByRole('progressbar')).toBeNull())
  })
})

describe("a sent message's files", () => {
  it('a thumbnail opens the image large (Esc closes it); a card shows the extracted text', async () => {
    const app = renderWithApp(
      <AttachedFiles files={[part('shot.png', 'image'), part('report.pdf', 'document')]} />,
      {
        'attachments.thumbnail': () => ({ url: PIXEL }),
        'attachments.get': () => ({ mediaType: 'image/jpeg', data: '/9j/4AAQ' }),
        'attachments.text': () => ({ text: 'The extracted words <b>as text</b>' }),
      },
    )
    const user = userEvent.setup()
    const open = await screen.findByRole('button', { name: 'Open shot.png' })
    await waitFor(() => expect(open.querySelector('img')?.getAttribute('src')).toBe(PIXEL))
    open.focus()
    await user.keyboard('{Enter}')
    const dialog = await screen.findByRole('dialog', { name: 'shot.png' })
    const large = await within(dialog).findByRole('img', { name: 'shot.png' })
    expect(large.getAttribute('src')).toBe('data:image/jpeg;base64,/9j/4AAQ')
    expect(dialog.textContent).toContain('1600×900')
    await user.keyboard('{Escape}')
    await waitFor(() => expect(screen.queryByRole('dialog')).toBeNull())
    const card = screen.getByRole('region', { name: 'report.pdf' })
    expect(card.textContent).toContain('3 pages')
    expect(card.textContent).toContain('12 345 characters extracted')
    await user.click(within(card).getByRole('button', { name: 'Show extracted text' }))
    const text = await within(card).findByText('The extracted words <b>as text</b>')
    expect(text.tagName).toBe('PRE')
    expect(card.querySelector('b')).toBeNull()
    expect(app.platform.requests.filter((r) => r.route === 'attachments.text')).toHaveLength(1)
  })
})
