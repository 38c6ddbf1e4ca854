import { describe, expect, it } from 'vitest'
import { MAX_MARKUP_COPIES, MAX_MARKUP_DEPTH, markupOverLimits, readMarkup } from './markup.js'

const depth = (html: string) => readMarkup(html).depth
const copies = (html: string) => readMarkup(html).copies

describe('readMarkup', () => {
  it('reads how deep well-formed markup (as React writes it) nests, and that it makes no copies', () => {
    expect(readMarkup('')).toEqual({ depth: 0, copies: 0 })
    expect(readMarkup('just text')).toEqual({ depth: 0, copies: 0 })
    expect(readMarkup('<p>a</p><p>b</p>')).toEqual({ depth: 1, copies: 0 })
    expect(
      readMarkup('<section class="slide"><h1 style="color:red">T<!-- -->x</h1><ul><li><b>1</b> <i>2</i></li><li>3</li></ul></section>'),
    ).toEqual({ depth: 4, copies: 0 })
    expect(depth('<p>a<br/>b<img src="x" alt=""/></p>')).toBe(2)
    expect(depth(`${'<i>'.repeat(600)}x${'</i>'.repeat(600)}`)).toBeGreaterThan(MAX_MARKUP_DEPTH)
  })

  it('reads attributes with > and quotes in their values, and comments, as no tags', () => {
    expect(depth('<p title="a > <b><b><b>" data-x=\'<i>\'>x</p>')).toBe(1)
    expect(depth('<p><!-- <b><b> --></p>')).toBe(1)
  })

  it('reads raw text (style, script, textarea, title) as text, up to its end tag, in HTML but not in SVG', () => {
    expect(depth('<div><style>a<b{}</style><p>x</p></div>')).toBe(2)
    expect(depth('<div><STYLE>a<b{}</Style ><p>x</p></div>')).toBe(2)
    expect(depth('<textarea><i><i><i></textarea>')).toBe(1)
    expect(depth('<svg><style><g><g></g></g></style></svg>')).toBe(4)
    // (A plaintext start tag closes the p, as a parser does.)
    expect(depth('<div><plaintext><i><i></i></i></div>')).toBe(2)
  })

  it('never reads less depth than a parser builds: unclosed tags and `/>` on HTML elements open, end tags close nothing past a scope', () => {
    expect(depth('<div/>'.repeat(1000))).toBeGreaterThan(MAX_MARKUP_DEPTH)
    expect(depth('<b>'.repeat(700))).toBeGreaterThan(MAX_MARKUP_DEPTH)
    expect(depth(`${'</p>'.repeat(50)}${'<i>'.repeat(10)}`)).toBe(10)
    // In SVG, `/>` closes.
    expect(depth(`<svg>${'<rect/>'.repeat(1000)}</svg>`)).toBe(2)
    // An end tag of a block closes it and what is left open inside it.
    expect(depth('<div><span><em></div><p>x</p>')).toBe(3)
    // A parser ignores `</div>` past a table (and `</span>` past a block): each round nests deeper.
    expect(depth('<div><table><tr><td><span></div>'.repeat(200))).toBeGreaterThan(MAX_MARKUP_DEPTH)
    expect(depth('<span><div></span>'.repeat(300))).toBeGreaterThan(MAX_MARKUP_DEPTH)
    // A table counts the tbody and tr a parser may add.
    expect(depth('<table><td>x</td></table>')).toBe(4)
    expect(depth('<div><table><tr><td><span></div>'.repeat(50))).toBe(350)
  })

  it('counts the copies a parser makes of formatting elements a block closed around', () => {
    // React writes this (a div in a p): the p closes at the div, its b is copied into the div's text.
    expect(copies('<p><b>bold<div>x</div></b></p>')).toBe(1)
    // Misnested end tags: each b is kept, and copied into every block with text after it.
    const bs = Array.from({ length: 50 }, (_, k) => `<b id="b${k}">`).join('')
    expect(copies(`<div>${bs}</div>${'<p>x</p>'.repeat(10)}`)).toBe(500)
    expect(copies(`<p>${bs}${'<div>x</div>'.repeat(10)}`)).toBe(500)
    expect(copies(`<ul><li>${bs}${'<li>x'.repeat(10)}</ul>`)).toBe(500)
    expect(copies(`<button>${bs}${'<button>x'.repeat(10)}`)).toBe(500)
    // Closed by their own end tags, nothing is copied; an end tag of a kept one drops it.
    expect(copies(`<p>${bs}${'</b>'.repeat(50)}${'<div>x</div>'.repeat(10)}</p>`)).toBe(0)
    expect(copies(`<div><b></div></b>${'<p>x</p>'.repeat(10)}`)).toBe(0)
  })

  it('stops at a limit, and says which', () => {
    const bs = Array.from({ length: 500 }, (_, k) => `<b id="b${k}">`).join('')
    const bomb = readMarkup(`<div>${bs}</div>${'<p>x</p>'.repeat(3000)}`)
    expect(bomb.copies).toBeGreaterThan(MAX_MARKUP_COPIES)
    expect(bomb.copies).toBeLessThan(MAX_MARKUP_COPIES + 1000)
    expect(markupOverLimits(bomb)).toMatch(
      /formatting elements \(b, i, a, …\) open across blocks, which a browser would copy more than 10,000 times/,
    )
    expect(markupOverLimits({ depth: 513, copies: 0 })).toMatch(/nests elements more than 512 deep/)
    expect(markupOverLimits({ depth: 512, copies: MAX_MARKUP_COPIES })).toBeUndefined()
  })

  it('reads a megabyte of hostile markup in one pass', () => {
    // Each would take minutes to read if a tag or a comment were looked for again from every `<` (the test's timeout).
    expect(depth('<a "'.repeat(250_000))).toBe(0)
    expect(depth('<a x="'.repeat(170_000))).toBe(0)
    expect(depth('<!--<'.repeat(200_000))).toBe(0)
    expect(depth('<style>'.repeat(140_000))).toBe(1)
    expect(depth("<i a='b".repeat(140_000))).toBe(0)
    expect(depth('<i a=b>'.repeat(140_000))).toBe(MAX_MARKUP_DEPTH + 1)
    expect(depth(`<i>${'</b>'.repeat(250_000)}`)).toBe(1)
    expect(MAX_MARKUP_DEPTH).toBe(512)
  })
})
