/**
 * Highlighted code's colors as classes, not inline styles: one class per pair of colors
 * (light, dark), its rule added to a style sheet of ours the first time the pair is drawn.
 * Elements with the same class share their computed style, so the browser styles a block of
 * a thousand tokens from a few dozen rules; with an inline style per token it computed each
 * token's style on its own.
 */

const classes = new Map<string, string>()
let sheet: CSSStyleSheet | null = null

function rules(): CSSStyleSheet | null {
  if (sheet || typeof document === 'undefined') return sheet
  const el = document.createElement('style')
  el.dataset['cairn'] = 'token-colors'
  document.head.appendChild(el)
  sheet = el.sheet
  return sheet
}

/** colors come from our themes (hex); anything else is not put into a rule */
const HEX = /^#[0-9a-fA-F]{3,8}$/

/** the class of a token colored `light` and `dark` ('' for neither, or a color not a hex) */
export function tokenColorClass(light: string | undefined, dark: string | undefined): string {
  if (!light && !dark) return ''
  const key = `${light ?? ''}|${dark ?? ''}`
  const known = classes.get(key)
  if (known !== undefined) return known
  if ((light && !HEX.test(light)) || (dark && !HEX.test(dark))) {
    classes.set(key, '')
    return ''
  }
  const name = `md-c${classes.size}`
  const decls = `${light ? `--l: ${light};` : ''}${dark ? ` --d: ${dark};` : ''}`
  const target = rules()
  target?.insertRule(`.${name} { ${decls} }`, target.cssRules.length)
  classes.set(key, name)
  return name
}
