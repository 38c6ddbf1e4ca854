import { describe, expect, it } from 'vitest'
import { MAX_MARKUP_DEPTH, markupDepth } from './markup.js'

describe('markupDepth', () => {
  it('reads how deep well-formed markup (as React writes it) nests', () => {
    expect(markupDepth('')).toBe(0)
    expect(markupDepth('just text')).toBe(0)
    expect(markupDepth('<p>a</p><p>b</p>')).toBe(1)
    expect(markupDepth('<section class="slide"><h1 style="color:red">T<!-- -->x</h1><ul><li><b>1</b></li></ul></section>')).toBe(4)
    expect(markupDepth('<p>a<br/>b<img src="x" alt=""/></p>')).toBe(2)
    expect(markupDepth(`${'<i>'.repeat(600)}x${'</i>'.repeat(600)}`)).toBe(600)
  })

  it('reads attributes with > and quotes in their values, and comments, as no tags', () => {
    expect(markupDepth('<p title="a > <b><b><b>" data-x=\'<i>\'>x</p>')).toBe(1)
    expect(markupDepth('<p><!-- <b><b> --></p>')).toBe(1)
  })

  it('reads raw text (style, script, textarea, title) as text, up to its end tag, in HTML but not in SVG', () => {
    expect(markupDepth('<div><style>a<b{}</style><p>x</p></div>')).toBe(2)
    expect(markupDepth('<div><STYLE>a<b{}</Style ><p>x</p></div>')).toBe(2)
    expect(markupDepth('<textarea><i><i><i></textarea>')).toBe(1)
    expect(markupDepth('<svg><style><g><g></g></g></style></svg>')).toBe(4)
    expect(markupDepth('<p><plaintext><i><i></i></i></p>')).toBe(2)
  })

  it('never reads less than a parser builds: unclosed tags and `/>` on HTML elements open, stray end tags close nothing', () => {
    expect(markupDepth('<div/>'.repeat(1000))).toBe(1000)
    expect(markupDepth('<b>'.repeat(700))).toBe(700)
    expect(markupDepth(`${'</p>'.repeat(50)}${'<i>'.repeat(10)}`)).toBe(10)
    // In SVG, `/>` closes.
    expect(markupDepth(`<svg>${'<rect/>'.repeat(1000)}</svg>`)).toBe(2)
    // An end tag closes its element and everything left open inside it.
    expect(markupDepth('<div><b><i><u></div><p>x</p>')).toBe(4)
  })

  it('reads a megabyte of hostile markup in one pass', () => {
    // Each would take minutes to read if a tag or a comment were looked for again from every `<` (the test's timeout).
    expect(markupDepth('<a "'.repeat(250_000))).toBe(0)
    expect(markupDepth('<a x="'.repeat(170_000))).toBe(0)
    expect(markupDepth('<!--<'.repeat(200_000))).toBe(0)
    expect(markupDepth('<style>'.repeat(140_000))).toBe(1)
    expect(markupDepth("<i a='b".repeat(140_000))).toBe(0)
    expect(markupDepth('<i a=b>'.repeat(140_000))).toBe(140_000)
    expect(MAX_MARKUP_DEPTH).toBe(512)
  })
})
