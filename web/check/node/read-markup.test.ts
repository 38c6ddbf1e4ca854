/**
 * How the Node checker reads a rendered slide's markup (in its own process;
 * here in the test's, on markup no slide made): parsed as a browser parses
 * it, sanitised with the renderer's sanitiser's rules, read with the
 * harness's, and refused when it grows past the limit once sanitised or as
 * a picture. The engine-equality test (browser tier) compares it with the
 * browser itself.
 */
import { describe, expect, it } from 'vitest'
import { readRenderedMarkup } from './read-markup.js'

const read = (html: string) => readRenderedMarkup(html)

describe('reading a rendered slide’s markup as the browser engine does', () => {
  it('reads the text in document order, blocks apart and inline elements within a line, and counts elements', () => {
    expect(
      read('<section class="slide"><h1>Quarterly <b>review</b></h1><p>2   points:</p><ul><li>1. Up</li><li>2. Down</li></ul></section>'),
    ).toEqual({
      ok: true,
      text: 'Quarterly review 2 points: 1. Up 2. Down',
      elements: 7,
    })
    expect(read('<p>a<br>b<span>c</span><div>d</div>\u00a0e</p>')).toMatchObject({ text: 'a bc d e' })
  })

  it('reads no text of unseen elements, but counts them', () => {
    expect(read('<div><style>.a{color:red}</style><svg><title>t</title><desc>d</desc><text>shown</text></svg></div>')).toEqual({
      ok: true,
      text: 'shown',
      elements: 6,
    })
  })

  it('sanitises first: forbidden elements go (a script with its content, a form keeps its own), unknown ones leave their content', () => {
    expect(
      read('<div><script>alert(1)</script><iframe>x</iframe><form><p>kept</p></form><my-widget><i>inner</i></my-widget></div>'),
    ).toEqual({
      ok: true,
      text: 'kept inner',
      elements: 3,
    })
    expect(read('<math><mi>x</mi></math><p>after</p>')).toEqual({ ok: true, text: 'after', elements: 1 })
  })

  it('parses as a browser: a table gains its tbody, a leading style goes to the head', () => {
    expect(read('<table><tr><td>cell</td></tr></table>')).toEqual({ ok: true, text: 'cell', elements: 4 })
    expect(read('<title>head</title><p>body</p>')).toEqual({ ok: true, text: 'body', elements: 1 })
  })

  it('removes what DOMPurify takes for markup hidden in text', () => {
    expect(read('<div><style>p::after { content: "<b>" }</style><p>x</p></div>')).toEqual({ ok: true, text: 'x', elements: 2 })
    // Left out with the rule that loads a URL (the sanitiser removes that rule before it looks).
    expect(read('<div><style>@property --i { syntax: "<image>"; initial-value: url(/v1/x) }</style><p>x</p></div>')).toMatchObject({
      elements: 3,
    })
  })

  it('refuses markup that grows past the limit once sanitised, or as the picture', () => {
    expect(read(`<p>${'\u00a0'.repeat(200_000)}</p>`)).toEqual({
      ok: false,
      message: expect.stringMatching(/grows to 1,200,007 characters once sanitised/),
    })
    expect(read('<svg></svg>'.repeat(30_000))).toEqual({
      ok: false,
      message: expect.stringMatching(/grows to 1,230,000 characters as the picture of the slide/),
    })
  })
})
