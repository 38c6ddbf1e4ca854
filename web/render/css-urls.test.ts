import { describe, expect, it } from 'vitest'
import { cssUrlsAllowed, mayHoldCssUrl } from './css-urls.js'

/** Allows a same-document fragment, one image and data: (as the sanitiser's judge would). */
const ALLOWED = (url: string) => url.startsWith('#') || url === '/ok.png' || url.startsWith('data:')
const seen = (css: string) => {
  const urls: string[] = []
  cssUrlsAllowed(css, (url) => {
    urls.push(url)
    return true
  })
  return urls
}
const allowed = (css: string) => cssUrlsAllowed(css, ALLOWED)

describe('cssUrlsAllowed', () => {
  it('reads each URL as the browser does, escapes undone, in any case and at any depth', () => {
    expect(seen('background: url(/a.png)')).toEqual(['/a.png'])
    expect(seen('background: URL( "/a.png" )')).toEqual(['/a.png'])
    expect(seen('background: u\\72l(/v1/projects?x)')).toEqual(['/v1/projects?x'])
    expect(seen('background: \\75 \\52 \\6c(/v\\31/x)')).toEqual(['/v1/x'])
    expect(seen("background: url('/v\\\n1/x')")).toEqual(['/v1/x'])
    expect(seen('--q: u\\72l(/v1/projects?x)')).toEqual(['/v1/projects?x'])
    expect(seen('color: var(--x, var(--y, url(/fallback.png)))')).toEqual(['/fallback.png'])
    expect(seen('background: if(style(--a: 1): url(/then.png); else: url(/else.png))')).toEqual(['/then.png', '/else.png'])
    expect(seen('background-image: im\\61ge-set("/a.png" 1x, url(/b.png) 2x, "/c.png" type("image/png"))')).toEqual([
      '/a.png',
      '/b.png',
      '/c.png',
    ])
    expect(seen('background: -webkit-image-set("/w.png" 1x), cross-fade(url(/x.png), image("/y.png"))')).toEqual([
      '/w.png',
      '/x.png',
      '/y.png',
    ])
    expect(seen('@import "/sheet.css"; @import url(/other.css) layer(x);')).toEqual(['/sheet.css', '/other.css'])
    expect(seen('@font-face { font-family: f; src: local("F"), url(/f.woff2) format("woff2") }')).toEqual(['/f.woff2'])
    expect(seen('mask: src("/m.svg")')).toEqual(['/m.svg'])
  })

  it('passes what loads only allowed URLs, and text that loads nothing', () => {
    for (const css of [
      'color: red; content: "/v1/projects"; font-family: "Inter", serif',
      'fill: url(#grad)',
      "clip-path: url('#c')",
      'background: url(/ok.png), linear-gradient(red, var(--primary))',
      'background-image: image-set("/ok.png" 1x, linear-gradient(red, blue) 2x)',
      'background: url(data:image/png;base64,AA)',
      'background-image: var(--q)',
      'background: u/**/rl(/v1/projects)',
      'background: element(#x), paint(worklet, "/v1/projects")',
      '--label: "/v1/projects"',
      '.a { color: red } @media (min-width: 1px) { .b { background: url(/ok.png) } }',
    ]) {
      expect(allowed(css), css).toBe(true)
    }
  })

  it('refuses a URL that is not allowed, however it is written', () => {
    for (const css of [
      'background: url(/v1/projects)',
      'background: URL(/v1/projects)',
      'background: u\\72l(/v1/projects?x)',
      'background: u\\rl(/v1/projects)',
      'background: \\000075rl(/v1/projects)',
      'background: url(/v\\31/projects)',
      'background: url("/v\\\n1/projects")',
      '--q: u\\72l(/v1/projects?x)',
      '--a: var(--b, url(/v1/projects))',
      'background-image: image-set("/v1/projects" 1x)',
      'background-image: im\\61ge-set("/v1/projects" 1x)',
      'background-image: -webkit-image-set("/v1/projects" 1x)',
      'background-image: image("/v1/projects")',
      'background-image: cross-fade(url(/ok.png), url(/v1/projects))',
      'background-image: cross-fade(url(/ok.png), image-set("/v1/projects" 1x))',
      'mask: src("/v1/projects")',
      '@import "/v1/projects";',
      '@font-face { font-family: f; src: url(/v1/projects) }',
      '@property --x { syntax: "<image>"; inherits: true; initial-value: url(/v1/projects) }',
      '.a { .b { background: url(/v1/projects) } }',
      'fill: url(/v1/projects#p)',
    ]) {
      expect(allowed(css), css).toBe(false)
    }
  })

  it('refuses a URL function whose URL is only known later (var, attr, env, if, a custom function) or that it cannot read', () => {
    for (const css of [
      'background-image: image-set(var(--s) 1x)',
      'background-image: image-set(attr(data-src) 1x)',
      'background-image: image-set(env(--x) 1x)',
      'background-image: image-set(if(style(--a: 1): "/ok.png"; else: "/ok.png") 1x)',
      'background-image: image-set(--url() 1x)',
      'background-image: image("/ok.png", var(--c))',
      'background-image: cross-fade(var(--i), url(/ok.png))',
      'mask: src(var(--u))',
      'mask: url(var(--u))',
      'mask: url("/ok.png" var(--modifier))',
      'background: url(/v1\\\n/x)',
      'background: url(/ok.png) url(/ok.png"x)',
      'background: src()',
      'background: src(',
    ]) {
      expect(allowed(css), css).toBe(false)
    }
  })

  it('closes a block only with its own closer: a stray bracket does not end an image function early', () => {
    expect(allowed('background-image: image-set(] "/v1/projects" 1x)')).toBe(false)
    expect(allowed('background-image: image-set("/ok.png" 1x) } "/v1/projects"')).toBe(true)
  })
})

describe('mayHoldCssUrl', () => {
  it('is false only for text without a parenthesis, which no escape can write', () => {
    expect(mayHoldCssUrl('url(/v1)')).toBe(true)
    expect(mayHoldCssUrl('u\\72l\\28/v1\\29')).toBe(false)
    expect(seen('background: u\\72l\\28/v1\\29')).toEqual([])
    expect(mayHoldCssUrl('A plain title')).toBe(false)
  })
})
