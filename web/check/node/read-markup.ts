/**
 * What a reader sees of a slide's markup, read in the Node checker's
 * process (`child.ts`) the way the browser engine reads it: the markup is
 * parsed as a browser parses it (parse5, the WHATWG HTML parser, into a
 * document, as DOMPurify's `DOMParser` does), sanitised as the renderer's
 * sanitiser does (`web/render/client/sanitize.ts`: DOMPurify with its HTML,
 * SVG and SVG-filter profiles and the renderer's forbidden tags and
 * attributes), and read as the checker's harness reads it
 * (`web/check/harness.ts`): its text in document order, whitespace
 * collapsed, and its number of elements.
 *
 * The markup it is given is already within the renderer's limits
 * (`MAX_MARKUP_CHARS`, `markupOverLimits`), so a parser's work is bounded.
 * Once sanitised, markup written out as HTML or as XHTML (the picture) over
 * `MAX_MARKUP_CHARS` is `too-large`, as in the browser. What this does not
 * do as a browser does: CSS. A browser writes a `style` attribute again,
 * normalised, when the sanitiser removes a declaration from it (a URL a
 * slide may not load); here the attribute is kept as written, so a slide
 * whose styles only grow past the limit once normalised renders here.
 */
import { type DefaultTreeAdapterTypes as T, parse, serialize } from 'parse5'
import { FORBIDDEN_ATTRIBUTES as FORBIDDEN_ATTRIBUTE_LIST, FORBIDDEN_TAGS as FORBIDDEN_TAG_LIST } from '../../render/forbidden.js'
import { MAX_MARKUP_CHARS, markupTooLarge } from '../../render/limits.js'

/** DOMPurify 3's allowed tags for its `html`, `svg` and `svgFilters` profiles (lower case, as it compares them). */
const ALLOWED_TAGS = new Set(
  [
    // html
    'a abbr acronym address area article aside audio b bdi bdo big blink blockquote body br button canvas caption center cite code col colgroup content data datalist dd decorator del details dfn dialog dir div dl dt element em fieldset figcaption figure font footer form h1 h2 h3 h4 h5 h6 head header hgroup hr html i img input ins kbd label legend li main map mark marquee menu menuitem meter nav nobr ol optgroup option output p picture pre progress q rp rt ruby s samp search section select shadow slot small source spacer span strike strong style sub summary sup table tbody td template textarea tfoot th thead time tr track tt u ul var video wbr',
    // svg
    'svg a altglyph altglyphdef altglyphitem animatecolor animatemotion animatetransform circle clippath defs desc ellipse filter font g glyph glyphref hkern image line lineargradient marker mask metadata mpath path pattern polygon polyline radialgradient rect stop style switch symbol text textpath title tref tspan view vkern',
    // svgFilters
    'feblend fecolormatrix fecomponenttransfer fecomposite feconvolvematrix fediffuselighting fedisplacementmap fedistantlight fedropshadow feflood fefunca fefuncb fefuncg fefuncr fegaussianblur feimage femerge femergenode femorphology feoffset fepointlight fespecularlighting fespotlight fetile feturbulence',
  ]
    .join(' ')
    .split(' '),
)

/** The renderer's own forbidden tags and attributes (`forbidden.ts`, as the sanitiser reads them); DOMPurify removes every `on*` attribute. */
const FORBIDDEN_TAGS: ReadonlySet<string> = new Set(FORBIDDEN_TAG_LIST)
const FORBIDDEN_ATTRIBUTES: ReadonlySet<string> = new Set(FORBIDDEN_ATTRIBUTE_LIST)
/** Elements DOMPurify removes with their content (the rest it removes keep theirs). */
const FORBID_CONTENTS = new Set(
  'annotation-xml audio colgroup desc foreignobject head iframe math mi mn mo ms mtext noembed noframes noscript plaintext script selectedcontent style svg template thead title video xmp'.split(
    ' ',
  ),
)
/** Elements whose content is written out as it is (so a `<` in it stays one). */
const RAW_TEXT = new Set(['style', 'script', 'xmp', 'iframe', 'noembed', 'noframes', 'plaintext', 'noscript'])
/** What DOMPurify takes for markup hidden in text. */
const MARKUP_PROBE = /<[/\w!]/

/** Elements a reader reads inline, inside a line (the harness's `INLINE`); every other element starts and ends a piece of text of its own. */
const INLINE = new Set(
  'a abbr b bdi bdo cite code data del dfn em font i ins kbd label mark q s samp small span strong sub sup time tspan textpath u var wbr'.split(
    ' ',
  ),
)
/** Elements whose text no reader sees (the harness's `UNSEEN`). */
const UNSEEN = new Set(['style', 'script', 'template', 'noscript', 'title', 'desc', 'metadata', 'head'])

const MATHML_NS = 'http://www.w3.org/1998/Math/MathML'
const HTML_NS = 'http://www.w3.org/1999/xhtml'

type Parent = T.ParentNode
type Child = T.ChildNode

const isElement = (node: T.Node): node is T.Element => 'tagName' in node
const isText = (node: T.Node): node is T.TextNode => node.nodeName === '#text'
const isComment = (node: T.Node): node is T.CommentNode => node.nodeName === '#comment'

function textContent(node: T.Element): string {
  let text = ''
  for (const child of node.childNodes) {
    if (isText(child)) text += child.value
    else if (isElement(child)) text += textContent(child)
  }
  return text
}

/**
 * A stylesheet's text as far as the renderer's sanitiser would keep it, for DOMPurify's look for markup
 * in it (which comes after the sanitiser has written the stylesheet out again): every top-level rule or
 * statement that names a URL or imports is left out. (The sanitiser removes only what loads what a slide
 * may not load, and writes the rest out in its own form: this is the nearest a reading without a CSS
 * engine comes.)
 */
function styleTextKept(css: string): string {
  let kept = ''
  let depth = 0
  let start = 0
  let quote = ''
  for (let i = 0; i < css.length; i++) {
    const char = css[i]!
    if (quote !== '') {
      if (char === '\\') i++
      else if (char === quote) quote = ''
      continue
    }
    if (char === '"' || char === "'") quote = char
    else if (char === '{') depth++
    else if (char === '}' || (char === ';' && depth === 0)) {
      if (char === '}') depth = Math.max(0, depth - 1)
      if (depth === 0) {
        const statement = css.slice(start, i + 1)
        if (!/url\(|image-set\(|image\(|@import/i.test(statement)) kept += statement
        start = i + 1
      }
    }
  }
  return kept + css.slice(start)
}

/** Whether DOMPurify takes the element for markup hidden in text (`_isUnsafeNode`): it is removed with its content. */
function unsafe(element: T.Element, name: string): boolean {
  const elementChild = element.childNodes.some(isElement)
  const literal = name === 'style' ? styleTextKept(textContent(element)) : textContent(element)
  if (RAW_TEXT.has(name) && element.namespaceURI === HTML_NS && (elementChild || MARKUP_PROBE.test(literal))) return true
  if (element.childNodes.length === 0 || elementChild) return false
  if (!MARKUP_PROBE.test(literal)) return false
  // Its inner HTML holds markup too: its text is written raw, or a comment is in it.
  return RAW_TEXT.has(name) || element.childNodes.some(isComment)
}

/** Sanitises `parent`'s children in place, as DOMPurify walks them. */
function sanitise(parent: Parent): void {
  const kept: Child[] = []
  for (const child of parent.childNodes) {
    if (isText(child)) {
      kept.push(child)
      continue
    }
    if (isComment(child)) {
      if (!/<[/\w]/.test(child.data)) kept.push(child)
      continue
    }
    if (!isElement(child)) continue
    const name = child.tagName.toLowerCase()
    if (unsafe(child, name)) continue
    if (FORBIDDEN_TAGS.has(name) || !ALLOWED_TAGS.has(name) || child.namespaceURI === MATHML_NS) {
      // Removed; its content stays in its place, sanitised in turn, unless it is of the kind removed with it.
      if (!FORBID_CONTENTS.has(name)) {
        sanitise(child)
        for (const grandchild of child.childNodes) {
          grandchild.parentNode = parent
          kept.push(grandchild)
        }
      }
      continue
    }
    child.attrs = child.attrs.filter((attribute) => {
      const attributeName = attribute.name.toLowerCase()
      return !attributeName.startsWith('on') && !FORBIDDEN_ATTRIBUTES.has(attributeName)
    })
    if (name === 'template') sanitise((child as T.Template).content)
    sanitise(child)
    kept.push(child)
  }
  parent.childNodes = kept
}

/** What the harness reads of sanitised markup: its text in document order (whitespace collapsed) and its elements. */
function readText(root: Parent): { text: string; elements: number } {
  const parts: string[] = []
  const walk = (node: Parent) => {
    for (const child of node.childNodes) {
      if (isText(child)) {
        parts.push(child.value)
        continue
      }
      if (!isElement(child)) continue
      const name = child.tagName.toLowerCase()
      if (UNSEEN.has(name)) continue
      if (name === 'br') {
        parts.push(' ')
        continue
      }
      const block = !INLINE.has(name)
      if (block) parts.push(' ')
      walk(child)
      if (block) parts.push(' ')
    }
  }
  walk(root)
  let elements = 0
  for (const child of root.childNodes) if (isElement(child)) elements += countElements(child)
  return { text: parts.join('').replace(/\s+/g, ' ').trim(), elements }
}

/** An element and every element inside it (a template's content is a document of its own: not counted, as `querySelectorAll` does not). */
function countElements(element: T.Element): number {
  let count = 1
  for (const child of element.childNodes) if (isElement(child)) count += countElements(child)
  return count
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;')
const xmlAttribute = (text: string) =>
  xmlText(text).replace(/"/g, '&quot;').replace(/\t/g, '&#9;').replace(/\n/g, '&#10;').replace(/\r/g, '&#13;')
const VOID = new Set('area base basefont bgsound br col embed frame hr img input keygen link meta param source track wbr'.split(' '))

/** How long the sanitised nodes are as XHTML, as the browser's XML serialiser writes them for a slide's picture (inside the XHTML `body`). */
function xhtmlLength(parent: Parent, parentNamespace: string): number {
  let length = 0
  for (const child of parent.childNodes) {
    if (isText(child)) length += xmlText(child.value).length
    else if (isComment(child)) length += child.data.length + 7
    else if (isElement(child)) {
      const namespace = child.namespaceURI as string
      length += 1 + child.tagName.length
      if (namespace !== parentNamespace) length += ` xmlns="${namespace}"`.length
      for (const attribute of child.attrs) {
        const name = attribute.prefix ? `${attribute.prefix}:${attribute.name}` : attribute.name
        length += ` ${name}="${xmlAttribute(attribute.value)}"`.length
      }
      const inner = child.tagName === 'template' ? (child as T.Template).content : child
      if (inner.childNodes.length === 0) length += namespace === HTML_NS ? (VOID.has(child.tagName) ? 3 : 3 + child.tagName.length + 1) : 2
      else length += 1 + xhtmlLength(inner, namespace) + 3 + child.tagName.length
    }
  }
  return length
}

/** What a reader sees of a rendered slide's markup, or why it is `too-large` once sanitised. */
export type MarkupReading = { ok: true; text: string; elements: number } | { ok: false; message: string }

/** Reads a rendered slide's markup (already within the renderer's limits) as the browser engine does. */
export function readRenderedMarkup(html: string): MarkupReading {
  const document = parse(html)
  const htmlElement = document.childNodes.find(isElement)
  const body = htmlElement?.childNodes.find((node): node is T.Element => isElement(node) && node.tagName === 'body')
  if (body === undefined) return { ok: true, text: '', elements: 0 }
  // DOMPurify keeps the white space the markup starts with (the parser drops it before the body).
  const leading = /^[\t\n\f\r ]+/.exec(html)?.[0]
  if (leading !== undefined) {
    const first = body.childNodes[0]
    if (first !== undefined && isText(first)) first.value = leading + first.value
    else body.childNodes.unshift({ nodeName: '#text', value: leading, parentNode: body } as T.TextNode)
  }
  sanitise(body)
  const sanitised = serialize(body)
  if (sanitised.length > MAX_MARKUP_CHARS) return { ok: false, message: markupTooLarge(sanitised.length, 'sanitised') }
  const picture = xhtmlLength(body, HTML_NS)
  if (picture > MAX_MARKUP_CHARS) return { ok: false, message: markupTooLarge(picture, 'picture') }
  return { ok: true, ...readText(body) }
}
