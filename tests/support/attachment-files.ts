/**
 * Real files made by real libraries, for the attachments' tests: PDFs (pdf-lib: text, pages,
 * none, encrypted, broken), a DOCX (docx), photos with an EXIF orientation and a GPS position
 * (sharp, then piexifjs), a PNG with transparency, a ZIP archive.
 */
import { createRequire } from 'node:module'
import { deflateRawSync } from 'node:zlib'
import { Document, Packer, Paragraph, TextRun } from 'docx'
import { PDFDocument, PDFHexString, PDFName, StandardFonts, rgb } from 'pdf-lib'
import sharp from 'sharp'

const require = createRequire(import.meta.url)
/** piexifjs ships no types: the four functions used here */
const piexif = require('piexifjs') as {
  dump(exif: Record<string, Record<number, unknown>>): string
  insert(exif: string, jpeg: string): string
  load(jpeg: string): Record<string, Record<number, unknown>>
  GPSIFD: Record<string, number>
  ImageIFD: Record<string, number>
}

/** a PDF with a text layer: `pages` pages, each holding its number and `words` */
export async function textPdf(pages: string[]): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  for (const text of pages) {
    const page = doc.addPage([595, 842])
    let y = 800
    for (const line of text.split('\n')) {
      page.drawText(line, { x: 40, y, size: 11, font })
      y -= 14
    }
  }
  return doc.save()
}

/**
 * A PDF whose pages hold only a drawing: no text layer (like a scan). Each A4 page is white
 * with a blue block over its lower left quarter (x 0–297, y 0–421 in points).
 */
export async function imageOnlyPdf(pages = 1): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  for (let i = 0; i < pages; i++) {
    const page = doc.addPage([595, 842])
    page.drawRectangle({ x: 0, y: 0, width: 297, height: 421, color: rgb(0.2, 0.4, 0.8) })
  }
  return doc.save()
}

/**
 * A PDF that asks for a password: its trailer names a standard security handler whose user
 * password is not the empty one, so a reader cannot open it without one.
 */
export async function encryptedPdf(): Promise<Uint8Array> {
  const doc = await PDFDocument.create()
  const font = await doc.embedFont(StandardFonts.Helvetica)
  doc.addPage().drawText('secret', { x: 50, y: 700, font, size: 12 })
  const ctx = doc.context
  const key = (n: number): string =>
    String.fromCharCode(...Array.from({ length: 32 }, (_, i) => (i * n) % 256))
  const encrypt = ctx.obj({
    Filter: 'Standard',
    V: 1,
    R: 2,
    Length: 40,
    P: -44,
    O: PDFHexOf(key(7)),
    U: PDFHexOf(key(13)),
  })
  ctx.trailerInfo.Encrypt = ctx.register(encrypt)
  ctx.trailerInfo.ID = ctx.obj([PDFHexOf(key(3).slice(0, 16)), PDFHexOf(key(3).slice(0, 16))])
  return doc.save({ useObjectStreams: false })
}

/** pdf-lib's hex string, from raw bytes */
function PDFHexOf(s: string): PDFHexString {
  return PDFHexString.of(Buffer.from(s, 'latin1').toString('hex'))
}

/** the start of a PDF and then garbage */
export function brokenPdf(): Uint8Array {
  return new TextEncoder().encode(
    `%PDF-1.7\n1 0 obj\n<< /Type /Catalog /Pages 9 0 R >>\n${'x'.repeat(2000)}`,
  )
}

/** a Word document of these paragraphs */
export async function docxFile(paragraphs: string[]): Promise<Uint8Array> {
  const doc = new Document({
    sections: [{ children: paragraphs.map((p) => new Paragraph({ children: [new TextRun(p)] })) }],
  })
  return new Uint8Array(await Packer.toBuffer(doc))
}

/**
 * A JPEG photo `width`×`height` as a phone writes it: stored sideways with EXIF orientation
 * 6 (turn right to view), and a GPS position (Paris).
 */
export async function phonePhoto(width = 4000, height = 3000): Promise<Uint8Array> {
  const jpeg = await sharp({
    create: { width, height, channels: 3, background: { r: 200, g: 120, b: 40 } },
  })
    .jpeg({ quality: 90 })
    .toBuffer()
  const exif = {
    '0th': { [piexif.ImageIFD['Orientation']!]: 6, [piexif.ImageIFD['Make']!]: 'TestPhone' },
    GPS: {
      [piexif.GPSIFD['GPSLatitudeRef']!]: 'N',
      [piexif.GPSIFD['GPSLatitude']!]: [
        [48, 1],
        [51, 1],
        [2400, 100],
      ],
      [piexif.GPSIFD['GPSLongitudeRef']!]: 'E',
      [piexif.GPSIFD['GPSLongitude']!]: [
        [2, 1],
        [21, 1],
        [300, 100],
      ],
    },
  }
  const withExif = piexif.insert(piexif.dump(exif), jpeg.toString('binary'))
  return new Uint8Array(Buffer.from(withExif, 'binary'))
}

/** whether a JPEG carries a GPS position (piexifjs reads it) */
export function hasGps(jpeg: Uint8Array): boolean {
  try {
    const gps = piexif.load(Buffer.from(jpeg).toString('binary'))['GPS'] ?? {}
    return Object.keys(gps).length > 0
  } catch {
    return false
  }
}

/** a PNG with a transparent half (a screenshot of a window with rounded corners, say) */
export async function transparentPng(width = 800, height = 600): Promise<Uint8Array> {
  const raw = Buffer.alloc(width * height * 4)
  for (let i = 0; i < width * height; i++) {
    raw[i * 4] = 30
    raw[i * 4 + 1] = 160
    raw[i * 4 + 2] = 90
    raw[i * 4 + 3] = i % width < width / 2 ? 255 : 0
  }
  return new Uint8Array(
    await sharp(raw, { raw: { width, height, channels: 4 } })
      .png()
      .toBuffer(),
  )
}

/** an opaque PNG screenshot */
export async function screenshotPng(width = 2880, height = 1800): Promise<Uint8Array> {
  return new Uint8Array(
    await sharp({ create: { width, height, channels: 4, background: '#f4f4f4' } })
      .png()
      .toBuffer(),
  )
}

/** a ZIP archive holding one text file (stored by hand: local header, deflate, directory) */
export function zipArchive(): Uint8Array {
  const name = Buffer.from('notes.txt')
  const data = Buffer.from('inside the archive')
  const packed = deflateRawSync(data)
  const local = Buffer.alloc(30)
  local.writeUInt32LE(0x04034b50, 0)
  local.writeUInt16LE(20, 4)
  local.writeUInt16LE(8, 8)
  local.writeUInt32LE(0, 14) // crc left 0: a reader that checks it says so, the type is clear
  local.writeUInt32LE(packed.length, 18)
  local.writeUInt32LE(data.length, 22)
  local.writeUInt16LE(name.length, 26)
  const central = Buffer.alloc(46)
  central.writeUInt32LE(0x02014b50, 0)
  central.writeUInt16LE(20, 4)
  central.writeUInt16LE(20, 6)
  central.writeUInt16LE(8, 10)
  central.writeUInt32LE(packed.length, 20)
  central.writeUInt32LE(data.length, 24)
  central.writeUInt16LE(name.length, 28)
  const dirStart = local.length + name.length + packed.length
  const end = Buffer.alloc(22)
  end.writeUInt32LE(0x06054b50, 0)
  end.writeUInt16LE(1, 8)
  end.writeUInt16LE(1, 10)
  end.writeUInt32LE(central.length + name.length, 12)
  end.writeUInt32LE(dirStart, 16)
  return new Uint8Array(Buffer.concat([local, name, packed, central, name, end]))
}

/** `size` bytes of text (a log, say) */
export function bigText(size: number): Uint8Array {
  const line = 'INFO 2026-11-28 request served in 12 ms from the cache\n'
  return new Uint8Array(Buffer.from(line.repeat(Math.ceil(size / line.length)).slice(0, size)))
}

export { PDFName }
