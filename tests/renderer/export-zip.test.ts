/**
 * Browser mode's download of an export: with files (a Markdown export's attachments) one ZIP
 * archive holding the Markdown and the files at the paths it links (read back with fflate's
 * reader); without, the file itself.
 */
import { strFromU8, unzipSync } from 'fflate'
import { describe, expect, it } from 'vitest'
import { zipExport, zipName } from '../../src-renderer/src/platform/download'

describe('an export with files', () => {
  it('is one ZIP: the Markdown and its files by their relative paths, byte for byte', () => {
    const pdf = new TextEncoder().encode('%PDF-1.7 the report')
    const png = new Uint8Array([137, 80, 78, 71, 13, 10, 26, 10, 0, 255])
    const base64 = (b: Uint8Array): string => btoa(String.fromCharCode(...b))
    const md = '# Puffins\n\n[report.pdf](<puffins-attachments/01-report.pdf>)\n'
    const zip = unzipSync(
      zipExport('puffins.md', md, [
        { path: 'puffins-attachments/01-report.pdf', data: base64(pdf) },
        { path: 'puffins-attachments/02-shot.png', data: base64(png) },
      ]),
    )
    expect(Object.keys(zip).sort()).toEqual([
      'puffins-attachments/01-report.pdf',
      'puffins-attachments/02-shot.png',
      'puffins.md',
    ])
    expect(strFromU8(zip['puffins.md']!)).toBe(md)
    expect(zip['puffins-attachments/01-report.pdf']).toEqual(pdf)
    expect(zip['puffins-attachments/02-shot.png']).toEqual(png)
  })

  it('is named after the export', () => {
    expect(zipName('puffins.md')).toBe('puffins.zip')
    expect(zipName('a.b.md')).toBe('a.b.zip')
  })
})
