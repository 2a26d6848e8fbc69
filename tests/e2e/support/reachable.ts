/**
 * Whether every control on screen can be used: each button, link, field and choice that is
 * rendered is, once its container scrolled it into view, inside the viewport and not
 * covered by something else (elementFromPoint at its middle is the control or inside it).
 * Also the page itself does not scroll sideways.
 */
import { expect, type Page } from '@playwright/test'

const CONTROLS =
  'button, a[href], input:not([type="hidden"]), select, textarea, [role="button"], [role="combobox"], [role="tab"], [role="menuitem"], [role="switch"]'

export async function unreachableControls(page: Page): Promise<string[]> {
  // runs in the page (a string: the tests' types have no DOM)
  return page.evaluate<string[]>(`((selector) => {
    const problems = []
    const doc = globalThis.document
    const win = globalThis.window
    const name = (el) =>
      (
        el.getAttribute('aria-label') ??
        el.labels?.[0]?.textContent ??
        el.getAttribute('placeholder') ??
        el.textContent ??
        ''
      )
        .trim()
        .slice(0, 40)
    if (doc.documentElement.scrollWidth > win.innerWidth + 1)
      problems.push(
        \`the page scrolls sideways (\${doc.documentElement.scrollWidth} > \${win.innerWidth})\`,
      )
    for (const el of Array.from(doc.querySelectorAll(selector))) {
      if (el.closest('[inert], [aria-hidden="true"], .visually-hidden')) continue // not on screen by design (a file input behind its button)
      if (el.getClientRects().length === 0) continue // not rendered (hidden, display: none)
      const style = win.getComputedStyle(el)
      if (style.visibility === 'hidden' || style.opacity === '0') continue
      el.scrollIntoView({ block: 'nearest', inline: 'nearest' })
      const r = el.getBoundingClientRect()
      if (r.width < 1 || r.height < 1) continue
      const label = \`\${el.tagName.toLowerCase()} "\${name(el)}"\`
      if (
        r.left < -0.5 ||
        r.top < -0.5 ||
        r.right > win.innerWidth + 0.5 ||
        r.bottom > win.innerHeight + 0.5
      ) {
        problems.push(
          \`\${label} is outside the viewport (\${Math.round(r.left)},\${Math.round(r.top)} \${Math.round(r.width)}×\${Math.round(r.height)})\`,
        )
        continue
      }
      const x = Math.min(win.innerWidth - 1, Math.max(0, r.left + r.width / 2))
      const y = Math.min(win.innerHeight - 1, Math.max(0, r.top + r.height / 2))
      const top = doc.elementFromPoint(x, y)
      const label2 = el.labels?.[0]
      if (top && !el.contains(top) && !top.contains(el) && !(label2 && label2.contains(top)))
        problems.push(\`\${label} is covered by \${top.tagName.toLowerCase()}.\${top.className}\`)
    }
    return problems
  })(${JSON.stringify(CONTROLS)})`)
}

export async function expectAllReachable(page: Page, where: string): Promise<void> {
  expect(await unreachableControls(page), where).toEqual([])
}
