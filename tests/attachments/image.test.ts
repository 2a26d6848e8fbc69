/**
 * An attached image as it is sent (src-main/adapters/attachments/image.ts), on images made
 * by sharp and piexifjs: a phone photo is turned upright by its EXIF orientation, loses its
 * GPS position and every other piece of metadata, and is scaled to the long side; a PNG with
 * transparency stays PNG; an opaque screenshot becomes JPEG; an SVG is rasterized.
 */
import sharp from 'sharp'
import { describe, expect, it } from 'vitest'
import { prepareImage } from '../../src-main/adapters/attachments/image'
import { hasGps, phonePhoto, screenshotPng, transparentPng } from '../support/attachment-files'

describe('prepareImage', () => {
  it('turns a phone photo upright, strips its GPS position and scales its long side to 2048', async () => {
    const photo = await phonePhoto(4000, 3000)
    expect(hasGps(photo)).toBe(true)
    const out = await prepareImage(photo, 'image/jpeg', 2048)
    expect(out.mediaType).toBe('image/jpeg')
    // stored sideways (4000×3000, orientation 6): upright it is 3000 wide, 4000 high
    expect([out.width, out.height]).toEqual([1536, 2048])
    expect(hasGps(out.data)).toBe(false)
    const meta = await sharp(out.data).metadata()
    expect(meta.exif).toBeUndefined()
    expect(meta.orientation).toBeUndefined()
    expect([meta.width, meta.height]).toEqual([1536, 2048])
  }, 30_000)

  it('follows the long side setting and never enlarges', async () => {
    const small = await prepareImage(await phonePhoto(400, 300), 'image/jpeg', 2048)
    expect([small.width, small.height]).toEqual([300, 400])
    const capped = await prepareImage(await screenshotPng(2880, 1800), 'image/png', 1024)
    expect([capped.width, capped.height]).toEqual([1024, 640])
    // opaque: JPEG
    expect(capped.mediaType).toBe('image/jpeg')
  }, 30_000)

  it('keeps transparency as PNG', async () => {
    const out = await prepareImage(await transparentPng(800, 600), 'image/png', 2048)
    expect(out.mediaType).toBe('image/png')
    const stats = await sharp(out.data).stats()
    expect(stats.isOpaque).toBe(false)
  }, 30_000)

  it('rasterizes an SVG (its script never runs: it is drawn as pixels)', async () => {
    const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="200" height="100"><script>alert(1)</script><rect width="200" height="100" fill="#c33"/></svg>`
    const out = await prepareImage(new TextEncoder().encode(svg), 'image/svg+xml', 2048)
    expect(out.mediaType).toBe('image/jpeg')
    expect(out.width).toBeGreaterThan(0)
    expect(new TextDecoder('latin1').decode(out.data)).not.toContain('<script>')
  }, 30_000)

  it('refuses a file that is not an image after all', async () => {
    await expect(
      prepareImage(new Uint8Array([0xff, 0xd8, 0xff, 1, 2, 3]), 'image/jpeg', 2048),
    ).rejects.toThrow(/cannot be decoded/)
  })
})
