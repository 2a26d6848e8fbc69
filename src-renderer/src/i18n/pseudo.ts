/**
 * The pseudo-locale: every English text accented and made about 40 % longer, with its
 * placeholders ({{name}}) and tags (<1>…</1>) kept, so a run of the window in it shows
 * text that is cut off, overflows or was never translated (it stays plain English).
 */
const ACCENTS: Record<string, string> = {
  a: 'á',
  e: 'é',
  i: 'í',
  o: 'ö',
  u: 'ü',
  c: 'ç',
  n: 'ñ',
  y: 'ý',
  s: 'š',
  z: 'ž',
  A: 'Å',
  E: 'É',
  I: 'Î',
  O: 'Ø',
  U: 'Û',
  C: 'Ç',
  N: 'Ñ',
  Y: 'Ý',
  S: 'Š',
  Z: 'Ž',
}

/** {{placeholder}}, $t(nesting) and <tag> stay as they are */
const KEEP = /(\{\{[^}]*\}\}|\$t\([^)]*\)|<\/?\d+>|<\/?[a-z]+\s*\/?>)/

export function pseudoText(text: string): string {
  const parts = text.split(KEEP)
  let letters = 0
  const out = parts
    .map((part, i) => {
      if (i % 2 === 1) return part
      letters += part.length
      return [...part].map((ch) => ACCENTS[ch] ?? ch).join('')
    })
    .join('')
  const pad = Math.ceil(letters * 0.4)
  return pad > 0 ? `⟦${out}${'·'.repeat(Math.max(0, pad - 2))}⟧` : out
}

type Tree = { [key: string]: string | Tree }

export function pseudoResources(tree: Tree): Tree {
  return Object.fromEntries(
    Object.entries(tree).map(([k, v]) => [
      k,
      typeof v === 'string' ? pseudoText(v) : pseudoResources(v),
    ]),
  )
}
