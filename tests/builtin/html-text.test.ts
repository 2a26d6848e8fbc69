/** fetch_url's HTML-to-text on pages shaped like the ones it meets: a blog post, a docs page. */
import { describe, expect, it } from 'vitest'
import { htmlToText } from '../../src-main/adapters/builtin-tools/html-text'

const BLOG = `<!DOCTYPE html>
<html lang="fr">
<head>
  <meta charset="utf-8">
  <title>Caf&eacute; d&eacute;j&agrave; vu &#8211; Le blog &amp; co</title>
  <link rel="stylesheet" href="/wp-content/themes/x/style.css">
  <style>.entry-content { color: #333 } a:hover { color: red }</style>
  <script type="application/ld+json">{"@type": "BlogPosting", "headline": "json-ld noise"}</script>
  <script>window.dataLayer = window.dataLayer || []; gtag('config', 'UA-1');</script>
</head>
<body class="post-template">
  <header class="site-header">
    <nav class="menu"><ul><li><a href="/">Accueil</a></li><li><a href="/about/">&Agrave; propos</a></li></ul></nav>
  </header>
  <main>
    <article>
      <h1 class="entry-title">Caf&eacute; d&eacute;j&agrave; vu</h1>
      <p class="meta">Posted on <time datetime="2024-03-01">March 1, 2024</time> by <a href="/author/ana/">Ana</a></p>
      <p>It&rsquo;s the caf&eacute; on the corner&nbsp;&mdash; read
        <a href="../../../2023/first-visit/">my first visit</a>, the
        <a href="https://example.org/menu?lang=fr&amp;page=2">menu</a>, or go
        <a href="#comments">to the comments</a>.</p>
      <p><img src="data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJ" alt="The counter at 8&nbsp;am">
        Source: <a href="https://example.org/">https://example.org/</a>
        <a href="javascript:void(0)" onclick="share()">Share</a></p>
      <h2>How to order</h2>
      <ol><li>Say <em>bonjour</em>.</li><li>Point at the croissant.</li></ol>
      <pre><code>if (hungry) {
    order('croissant');
}</code></pre>
      <blockquote><p>&laquo;&nbsp;Le meilleur caf&eacute;&nbsp;&raquo;</p></blockquote>
    </article>
    <aside class="sidebar"><h3>Popular posts</h3><a href="/popular/">sidebar noise</a></aside>
  </main>
  <dialog open class="cookie-consent">We use cookies <button>Accept</button></dialog>
  <noscript><img src="https://tracker.example/pixel.gif" alt="tracking pixel"></noscript>
  <footer>&copy; 2024 Le blog &middot; <a href="/privacy/">Privacy</a></footer>
  <script src="/wp-includes/js/app.js"></script>
</body>
</html>`

const DOCS = `<html><head><title>  API reference
  | Stones  </title></head><body>
<div id="app"><div class="layout"><div class="content">
<h2 id="limits">Limits</h2>
<table class="params">
  <thead><tr><th>Name</th><th>Default</th><th>Meaning</th></tr></thead>
  <tbody>
    <tr><td><code>maxStones</code></td><td>50</td><td>stones per pile</td></tr>
    <tr><td><code>height</code></td><td>1.5&nbsp;m</td><td>tallest pile &le; 2&nbsp;m</td></tr>
  </tbody>
</table>
<p>Questions? <a href="mailto:help@example.org">Write to us</a> or see <a href="/docs/faq#piles">the FAQ</a>.</p>
<dl><dt>Cairn</dt><dd>A pile of stones.</dd></dl>
</div></div></div>
<template><p>template noise</p></template>
<svg viewBox="0 0 10 10"><text>svg noise</text></svg>
</body></html>`

describe('htmlToText on a blog post', () => {
  const { title, text } = htmlToText(BLOG, 'https://blog.example/2024/03/cafe/')

  it('reads the title with its entities decoded', () => {
    expect(title).toBe('Café déjà vu – Le blog & co')
  })

  it('keeps the article: headings, paragraphs, lists, code and quotes', () => {
    expect(text).toContain('# Café déjà vu')
    expect(text).toContain('## How to order')
    expect(text).toMatch(/1\. Say bonjour\.\n *2\. Point at the croissant\./)
    expect(text).toContain("if (hungry) {\n    order('croissant');\n}")
    expect(text).toContain('« Le meilleur café »')
    expect(text).toContain('The counter at 8 am')
  })

  it('keeps every link with its address, resolved against the page', () => {
    expect(text).toContain('by Ana [https://blog.example/author/ana/]')
    expect(text).toContain('my first visit [https://blog.example/2023/first-visit/]')
    expect(text).toContain('menu [https://example.org/menu?lang=fr&page=2]')
    // a link that reads as its own address is written once; anchors and scripts have none
    expect(text).toContain('Source: https://example.org/ Share')
    expect(text).toContain('go to the comments.')
    expect(text).not.toContain('javascript:')
  })

  it('decodes entities everywhere', () => {
    expect(text).toContain('It’s the café on the corner — read')
    expect(text).not.toMatch(/&[a-z]+;|&#\d+;/i)
    expect(text).not.toContain('\u00a0')
  })

  it('drops scripts, styles, navigation, sidebars, dialogs, footers and data URLs', () => {
    for (const noise of [
      'dataLayer',
      'json-ld noise',
      'color: #333',
      'Accueil',
      'propos',
      'sidebar noise',
      'Popular posts',
      'cookies',
      'tracking pixel',
      'Privacy',
      '©',
      'base64',
    ]) {
      expect(text, noise).not.toContain(noise)
    }
  })
})

describe('htmlToText on a documentation page', () => {
  const { title, text } = htmlToText(DOCS, 'https://docs.example/api/')

  it('reads the title as one line', () => {
    expect(title).toBe('API reference | Stones')
  })

  it('lays a table out in rows and columns', () => {
    const rows = text.split('\n').filter((l) => /maxStones|height|Default/.test(l))
    expect(rows).toHaveLength(3)
    expect(rows[0]).toMatch(/^Name +Default +Meaning$/)
    expect(rows[1]).toMatch(/^maxStones +50 +stones per pile$/)
    expect(rows[2]).toMatch(/^height +1\.5 m +tallest pile ≤ 2 m$/)
  })

  it('keeps mail and in-site links, and drops templates and drawings', () => {
    expect(text).toContain('Write to us [help@example.org]')
    expect(text).toContain('the FAQ [https://docs.example/docs/faq#piles]')
    expect(text).toMatch(/Cairn\n+A pile of stones\./)
    expect(text).not.toContain('template noise')
    expect(text).not.toContain('svg noise')
  })

  it('leaves relative links as they are without a page address', () => {
    expect(htmlToText('<a href="/docs/faq">FAQ</a>').text).toBe('FAQ [/docs/faq]')
  })

  it('has no title when there is none, and never puts the title in the text', () => {
    expect(htmlToText('<p>just text</p>').title).toBeNull()
    expect(htmlToText('<title>Only</title>plain').text).toBe('plain')
  })
})
