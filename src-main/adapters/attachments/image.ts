/**
 * An attached image as it is sent, made with sharp (libvips, prebuilt; it runs on libvips'
 * own threads, not on the event loop): decoded (a GIF's first frame; an SVG rasterized,
 * never rendered as a document; HEIC only where the library has its codec), turned upright
 * by its EXIF orientation, stripped of every piece of metadata (EXIF with its GPS position,
 * XMP, IPTC, comments: sharp keeps none unless asked), scaled so that its long side is at
 * most `longSide`, and encoded again: JPEG, or PNG when it has transparency.
 */
import sharp, { type Metadata, type Sharp } from 'sharp'

/** a decompression bomb stops here (about 100 megapixels) */
export const MAX_INPUT_PIXELS = 100_000_000
export const JPEG_QUALITY = 85
/** an SVG is drawn at this density (dots per inch), then scaled like any image */
const SVG_DENSITY = 144

export interface PreparedImage {
  data: Uint8Array
  mediaType: 'image/jpeg' | 'image/png'
  width: number
  height: number
}

export class ImageDecodeError extends Error {
  constructor(
    message: string,
    /** the library has no decoder for this kind (HEIC without its codec) */
    readonly unsupported: boolean,
  ) {
    super(message)
    this.name = 'ImageDecodeError'
  }
}

function open(bytes: Uint8Array, mediaType: string): Sharp {
  return sharp(bytes, {
    limitInputPixels: MAX_INPUT_PIXELS,
    failOn: 'error',
    // a GIF's (or animated WebP's) first frame only
    pages: 1,
    ...(mediaType === 'image/svg+xml' ? { density: SVG_DENSITY } : {}),
  })
}

export async function prepareImage(
  bytes: Uint8Array,
  mediaType: string,
  longSide: number,
): Promise<PreparedImage> {
  let meta: Metadata
  try {
    meta = await open(bytes, mediaType).metadata()
  } catch (e) {
    throw decodeError(e, mediaType)
  }
  const transparent = meta.hasAlpha === true && !(await isOpaque(bytes, mediaType))
  const pipeline = open(bytes, mediaType)
    .rotate()
    .resize({ width: longSide, height: longSide, fit: 'inside', withoutEnlargement: true })
  const encoded = transparent
    ? pipeline.png({ compressionLevel: 6 })
    : pipeline.flatten({ background: '#ffffff' }).jpeg({ quality: JPEG_QUALITY })
  try {
    const { data, info } = await encoded.toBuffer({ resolveWithObject: true })
    return {
      data: new Uint8Array(data.buffer, data.byteOffset, data.byteLength),
      mediaType: transparent ? 'image/png' : 'image/jpeg',
      width: info.width,
      height: info.height,
    }
  } catch (e) {
    throw decodeError(e, mediaType)
  }
}

async function isOpaque(bytes: Uint8Array, mediaType: string): Promise<boolean> {
  try {
    return (await open(bytes, mediaType).stats()).isOpaque
  } catch {
    return false
  }
}

function decodeError(e: unknown, mediaType: string): ImageDecodeError {
  const text = e instanceof Error ? e.message : String(e)
  if (mediaType === 'image/heic')
    return new ImageDecodeError(
      'HEIC photos cannot be decoded here (the image library comes without the HEVC codec): export it as JPEG or PNG first',
      true,
    )
  if (/pixel limit/i.test(text))
    return new ImageDecodeError(
      `it has more than ${MAX_INPUT_PIXELS / 1_000_000} million pixels`,
      false,
    )
  return new ImageDecodeError(`it cannot be decoded as an image (${text.split('\n')[0]})`, false)
}

/** A small preview (the long side `size` pixels) as a `data:` URL, for the window. */
export async function thumbnail(stored: Uint8Array, size = 160): Promise<string> {
  const data = await sharp(stored, { limitInputPixels: MAX_INPUT_PIXELS })
    .resize({ width: size, height: size, fit: 'inside', withoutEnlargement: true })
    .webp({ quality: 70 })
    .toBuffer()
  return `data:image/webp;base64,${data.toString('base64')}`
}
