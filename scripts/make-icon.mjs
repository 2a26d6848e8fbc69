#!/usr/bin/env node
/**
 * Draws Cairn's icon — four rounded stones stacked on a calm, rounded-square background —
 * and writes it as a 1024×1024 PNG (node:zlib only) to resources/icon.png (the source)
 * and build/icon.png (electron-builder's icon). Run: node scripts/make-icon.mjs
 */
import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { deflateSync } from 'node:zlib'

const SIZE = 1024
const SS = 4 // samples per axis per pixel, for smooth edges

const hex = (h) => [1, 3, 5].map((i) => parseInt(h.slice(i, i + 2), 16))
const mix = (a, b, t) => a.map((v, i) => v + (b[i] - v) * t)
const clamp = (v, lo = 0, hi = 1) => Math.min(hi, Math.max(lo, v))

/** A shape: inside(x, y) for coverage, color(x, y) → [r, g, b], alpha, bounding box. */
function roundedSquare(x0, y0, size, r, top, bottom) {
  const [c0, c1] = [hex(top), hex(bottom)]
  return {
    box: [x0, y0, x0 + size, y0 + size],
    alpha: 1,
    inside: (x, y) => {
      const dx = Math.max(x0 + r - x, 0, x - (x0 + size - r))
      const dy = Math.max(y0 + r - y, 0, y - (y0 + size - r))
      return dx * dx + dy * dy <= r * r
    },
    color: (_x, y) => mix(c0, c1, clamp((y - y0) / size)),
  }
}

/** A rotated superellipse: a stone (shaded from the upper left) or a soft shadow. */
function stone({ cx, cy, a, b, deg = 0, p = 2.6, fill, alpha = 1, shade = 0.22 }) {
  const t = (deg * Math.PI) / 180
  const [cos, sin] = [Math.cos(t), Math.sin(t)]
  const base = hex(fill)
  const local = (x, y) => {
    const dx = x - cx
    const dy = y - cy
    return [(dx * cos + dy * sin) / a, (-dx * sin + dy * cos) / b]
  }
  const r = Math.max(a, b) + 2
  return {
    box: [cx - r, cy - r, cx + r, cy + r],
    alpha,
    inside: (x, y) => {
      const [u, v] = local(x, y)
      return Math.abs(u) ** p + Math.abs(v) ** p <= 1
    },
    color: (x, y) => {
      const [u, v] = local(x, y)
      const light = -0.45 * u - 0.85 * v // brighter towards the upper left
      const rim = Math.abs(u) ** p + Math.abs(v) ** p // darker towards the edge
      const k = 1 + shade * light - 0.12 * rim ** 3
      return base.map((c) => clamp(c * k, 0, 255))
    },
  }
}

const shadow = (s, dy, alpha) => stone({ ...s, cy: s.cy + dy, fill: '#1e2a2e', alpha, shade: 0 })

/** `shape`, drawn only where `clip` is */
const clipped = (shape, clip) => ({
  ...shape,
  inside: (x, y) => clip.inside(x, y) && shape.inside(x, y),
})

function scene() {
  const stones = [
    { cx: 512, cy: 722, a: 252, b: 94, deg: -2, fill: '#5f6d73' },
    { cx: 498, cy: 582, a: 190, b: 78, deg: 4, fill: '#76858c' },
    { cx: 522, cy: 463, a: 138, b: 64, deg: -5, fill: '#8f9da4' },
    { cx: 506, cy: 366, a: 88, b: 50, deg: 3, fill: '#aab6bb' },
  ]
  const background = roundedSquare(64, 64, 896, 200, '#e4efe9', '#a8cac4')
  const shapes = [
    background,
    // a low, pale sun, the ground, and the cairn's shadow on it
    stone({ cx: 730, cy: 280, a: 84, b: 84, p: 2, fill: '#f7f4e6', alpha: 0.6, shade: 0 }),
    clipped(
      stone({ cx: 512, cy: 960, a: 560, b: 170, p: 2, fill: '#8db5ae', alpha: 0.6, shade: 0 }),
      background,
    ),
    stone({ cx: 520, cy: 808, a: 280, b: 34, p: 2, fill: '#1e2a2e', alpha: 0.16, shade: 0 }),
  ]
  for (const [i, s] of stones.entries()) {
    const below = stones[i - 1]
    // where it rests on the stone below, a little shade on that stone only
    if (below) shapes.push(clipped(shadow(s, 12, 0.28), stone(below)))
    shapes.push(stone(s))
  }
  return shapes
}

function render() {
  const shapes = scene()
  const rgba = new Float64Array(SIZE * SIZE * 4) // premultiplied
  for (const s of shapes) {
    const [bx0, by0, bx1, by1] = s.box.map((v) => clamp(Math.round(v), 0, SIZE))
    for (let y = Math.max(0, by0 - 1); y < Math.min(SIZE, by1 + 1); y++) {
      for (let x = Math.max(0, bx0 - 1); x < Math.min(SIZE, bx1 + 1); x++) {
        let hits = 0
        for (let j = 0; j < SS; j++) {
          for (let i = 0; i < SS; i++) {
            if (s.inside(x + (i + 0.5) / SS, y + (j + 0.5) / SS)) hits++
          }
        }
        if (hits === 0) continue
        const a = (s.alpha * hits) / (SS * SS)
        const [r, g, b] = s.color(x + 0.5, y + 0.5)
        const o = (y * SIZE + x) * 4
        rgba[o] = r * a + rgba[o] * (1 - a)
        rgba[o + 1] = g * a + rgba[o + 1] * (1 - a)
        rgba[o + 2] = b * a + rgba[o + 2] * (1 - a)
        rgba[o + 3] = a + rgba[o + 3] * (1 - a)
      }
    }
  }
  return rgba
}

const CRC_TABLE = Array.from({ length: 256 }, (_, n) => {
  let c = n
  for (let k = 0; k < 8; k++) c = c & 1 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
  return c >>> 0
})

function crc32(buf) {
  let c = 0xffffffff
  for (const byte of buf) c = CRC_TABLE[(c ^ byte) & 0xff] ^ (c >>> 8)
  return (c ^ 0xffffffff) >>> 0
}

function chunk(type, data) {
  const out = Buffer.alloc(12 + data.length)
  out.writeUInt32BE(data.length, 0)
  out.write(type, 4, 'ascii')
  data.copy(out, 8)
  out.writeUInt32BE(crc32(out.subarray(4, 8 + data.length)), 8 + data.length)
  return out
}

/** An 8-bit RGBA PNG from premultiplied floating-point pixels. */
function encodePng(rgba, width, height) {
  const raw = Buffer.alloc(height * (1 + width * 4))
  for (let y = 0; y < height; y++) {
    const row = y * (1 + width * 4) // filter byte 0: none
    for (let x = 0; x < width; x++) {
      const i = (y * width + x) * 4
      const a = rgba[i + 3]
      const o = row + 1 + x * 4
      for (let k = 0; k < 3; k++)
        raw[o + k] = a > 0 ? Math.round(clamp(rgba[i + k] / a, 0, 255)) : 0
      raw[o + 3] = Math.round(a * 255)
    }
  }
  const ihdr = Buffer.alloc(13)
  ihdr.writeUInt32BE(width, 0)
  ihdr.writeUInt32BE(height, 4)
  ihdr.set([8, 6, 0, 0, 0], 8) // 8-bit, RGBA, deflate, no filter method, no interlace
  return Buffer.concat([
    Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]),
    chunk('IHDR', ihdr),
    chunk('IDAT', deflateSync(raw, { level: 9 })),
    chunk('IEND', Buffer.alloc(0)),
  ])
}

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const png = encodePng(render(), SIZE, SIZE)
for (const file of [join(root, 'resources', 'icon.png'), join(root, 'build', 'icon.png')]) {
  mkdirSync(dirname(file), { recursive: true })
  writeFileSync(file, png)
  console.log(`wrote ${file} (${SIZE}×${SIZE}, ${png.length} bytes)`)
}
