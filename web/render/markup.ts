/**
 * The shape of a component's markup, read from its text before any
 * document parses it (by the worker that rendered it, on the slide's
 * clock, and again by the renderer frame, whose sanitiser parses it on the
 * frame's one thread, which nothing can stop).
 *
 * An HTML parser's work can grow much faster than the markup:
 *
 * - past the depth it keeps (Chromium keeps 512 levels and puts deeper
 *   elements beside the 512th, after a walk that costs more with every
 *   level: 280,000 characters of nested `<i>` took 9 s to parse), so a
 *   slide may nest at most `MAX_MARKUP_DEPTH` levels (a browser would not
 *   show it deeper anyway);
 * - when formatting elements (`b`, `i`, `a`, …) are left open as a block
 *   closes around them (`<p><b>…<div>`, or a misnested end tag): the
 *   parser keeps them and copies them into every later block that holds
 *   text (22,000 characters of it made a million elements and took minutes
 *   to parse). A slide's markup may make at most `MAX_MARKUP_COPIES` such
 *   copies, which no markup a person writes comes near.
 *
 * Nothing here runs slide code.
 */

/** The deepest nesting of elements a slide's markup may have (Chromium's parser keeps 512 levels). */
export const MAX_MARKUP_DEPTH = 512

/** How many copies of formatting elements left open a parser may make of a slide's markup. */
export const MAX_MARKUP_COPIES = 10_000

/** What `readMarkup` found: the deepest nesting and the copies a parser would make (each at least what it read before it stopped at a limit). */
export interface MarkupShape {
  depth: number
  copies: number
}

/** The `too-large` message of markup over one of the limits, or undefined. */
export function markupOverLimits(shape: MarkupShape): string | undefined {
  if (shape.depth > MAX_MARKUP_DEPTH) {
    return `The component's markup nests elements more than ${MAX_MARKUP_DEPTH} deep, the most a slide may have (a browser shows no deeper nesting), so it is not shown.`
  }
  if (shape.copies > MAX_MARKUP_COPIES) {
    return `The component's markup leaves formatting elements (b, i, a, …) open across blocks, which a browser would copy more than ${MAX_MARKUP_COPIES.toLocaleString('en')} times, the most a slide may have, so it is not shown. Close each inside the block that holds it.`
  }
  return undefined
}

/** Elements that have no end tag. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
])
/** Elements whose content is text up to their own end tag (in HTML, not in SVG or MathML). */
const RAW_TEXT = new Set(['style', 'script', 'textarea', 'title', 'xmp', 'iframe', 'noembed', 'noframes'])
/** Formatting elements: a parser keeps them when a block closes around them, and copies them into later blocks. */
const FORMATTING = new Set(['a', 'b', 'big', 'code', 'em', 'font', 'i', 'nobr', 's', 'small', 'strike', 'strong', 'tt', 'u'])
/** Start tags that close an open `p` (and so what is open inside it). */
const CLOSES_P = new Set([
  'address',
  'article',
  'aside',
  'blockquote',
  'center',
  'dd',
  'details',
  'dialog',
  'dir',
  'div',
  'dl',
  'dt',
  'fieldset',
  'figcaption',
  'figure',
  'footer',
  'form',
  'h1',
  'h2',
  'h3',
  'h4',
  'h5',
  'h6',
  'header',
  'hgroup',
  'hr',
  'li',
  'listing',
  'main',
  'menu',
  'nav',
  'ol',
  'p',
  'plaintext',
  'pre',
  'search',
  'section',
  'summary',
  'table',
  'ul',
  'xmp',
])
/** Elements an end tag (or a `p`-closing start tag) does not close past: the parser's scopes, widest of them. */
const SCOPE = new Set([
  'applet',
  'button',
  'caption',
  'html',
  'marquee',
  'object',
  'ol',
  'table',
  'td',
  'template',
  'th',
  'ul',
  'mi',
  'mo',
  'mn',
  'ms',
  'mtext',
  'annotation-xml',
  'foreignobject',
  'desc',
  'title',
])
/** The parser's special elements: an end tag of another (`</span>`, `</b>`) closes nothing past one of them. */
const SPECIAL = new Set([
  ...CLOSES_P,
  ...SCOPE,
  'area',
  'base',
  'basefont',
  'bgsound',
  'body',
  'br',
  'col',
  'colgroup',
  'embed',
  'frame',
  'frameset',
  'head',
  'iframe',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'noembed',
  'noframes',
  'noscript',
  'param',
  'script',
  'select',
  'source',
  'style',
  'tbody',
  'textarea',
  'tfoot',
  'thead',
  'tr',
  'track',
  'wbr',
])
/** Start tags that close an open element of their own kind (or the other of the pair), past anything but a special element other than address, div or p. */
const CLOSES_OWN: Record<string, readonly string[]> = { li: ['li'], dd: ['dd', 'dt'], dt: ['dd', 'dt'] }

/** Each raw-text element's end tag, found from where its content starts. */
const RAW_TEXT_END = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}[\\s/>]`, 'gi')]))

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
/** Where a tag's name ends: white space, `/` or `>`. */
const endsName = (code: number) => code === 32 || code === 9 || code === 10 || code === 12 || code === 13 || code === 47 || code === 62

/**
 * The markup's shape, read from its tags as a parser keeps elements open:
 * an end tag closes the innermost open element of its name and everything
 * inside it (one with no open element of its name closes nothing), a void
 * element and (in SVG or MathML) a `/>` tag close at once, a start tag of
 * a block closes an open `p` (outside a button's scope), a table holds
 * the tbody and tr a parser may add, the content of a
 * raw-text element is text, and everything after `<plaintext>` too.
 * Formatting elements closed that way, not by their own end tag, are
 * copied back open by the next text or inline start tag, as a parser does.
 * A start tag always opens, and copies are counted before a parser would
 * drop any: what this reads is never less than what a parser builds. It
 * stops as soon as either is over its limit; each character is read once
 * or twice.
 */
export function readMarkup(html: string): MarkupShape {
  const open: string[] = []
  /** How many of `open` are outside SVG and MathML (the rest are in foreign content). */
  let html5 = 0
  /** Formatting elements closed around, not by their own end tag: a parser copies them back open. */
  let kept: string[] = []
  let depth = 0
  let copies = 0
  const over = () => depth > MAX_MARKUP_DEPTH || copies > MAX_MARKUP_COPIES
  /** Whether the element open at `index` may be closed by an end tag of `name` (what is open inside it does not stop it). */
  const closable = (index: number, name: string) => {
    const phrasing = !SPECIAL.has(name) || FORMATTING.has(name)
    for (let i = index + 1; i < open.length; i++) if (SCOPE.has(open[i]!) || (phrasing && SPECIAL.has(open[i]!))) return false
    return true
  }
  /** Elements closed: the formatting ones among them are kept. */
  const close = (from: number) => {
    for (let i = from; i < open.length; i++) if (FORMATTING.has(open[i]!) && i < html5) kept.push(open[i]!)
    open.length = from
    html5 = Math.min(html5, open.length)
  }
  /** Text or an inline start tag: the kept formatting elements are copied back open. */
  const reopen = () => {
    if (kept.length === 0 || open.length > html5) return
    copies += kept.length
    for (const name of kept) open.push(name)
    html5 = open.length
    kept = []
    depth = Math.max(depth, open.length)
  }
  let at = html.indexOf('<')
  while (at !== -1 && !over()) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4)
      if (end === -1) break
      at = html.indexOf('<', end + 3)
      continue
    }
    const closing = html.charCodeAt(at + 1) === 47
    const from = at + (closing ? 2 : 1)
    if (!isLetter(html.charCodeAt(from))) {
      // A `<` that starts no tag is text.
      reopen()
      at = html.indexOf('<', at + 1)
      continue
    }
    let to = from
    while (to < html.length && !endsName(html.charCodeAt(to))) to++
    const name = html.slice(from, to).toLowerCase()
    // Its attributes, up to the `>` outside a quoted value.
    let end = to
    while (end < html.length && html.charCodeAt(end) !== 62) {
      if (html.charCodeAt(end) === 61) {
        end++
        while (end < html.length && /\s/.test(html[end]!)) end++
        const quote = html[end]
        if (quote === '"' || quote === "'") {
          const closed = html.indexOf(quote, end + 1)
          end = closed === -1 ? html.length : closed + 1
        }
        continue
      }
      end++
    }
    // A tag left open at the end is no element.
    if (end >= html.length) break
    const next = end + 1
    // Text after this tag, before the next one.
    const text = () => {
      at = html.indexOf('<', next)
      if ((at === -1 ? html.length : at) > next) reopen()
    }
    if (closing) {
      const innermost = open.lastIndexOf(name)
      if (innermost !== -1 && closable(innermost, name)) {
        // What is open inside it is closed around (formatting elements kept); it is closed by its own end tag.
        close(innermost + 1)
        open.length = innermost
        html5 = Math.min(html5, open.length)
      } else if (innermost === -1 && FORMATTING.has(name)) {
        // The end tag of a kept one: a parser forgets it.
        const kept_ = kept.lastIndexOf(name)
        if (kept_ !== -1) kept.splice(kept_, 1)
      }
      text()
      continue
    }
    const foreign = open.length > html5 || name === 'svg' || name === 'math'
    if (!foreign) {
      if (CLOSES_P.has(name)) {
        const p = open.lastIndexOf('p')
        if (p !== -1 && p < html5 && !open.slice(p + 1).some((inside) => SCOPE.has(inside))) close(p)
      } else {
        reopen()
      }
      const own = CLOSES_OWN[name]
      if (own !== undefined) {
        for (let i = open.length - 1; i >= 0; i--) {
          if (own.includes(open[i]!)) {
            close(i)
            break
          }
          if (SPECIAL.has(open[i]!) && open[i] !== 'address' && open[i] !== 'div' && open[i] !== 'p') break
        }
      }
      if (name === 'button') {
        const button = open.lastIndexOf('button')
        if (button !== -1 && closable(button, 'div')) close(button)
      }
    }
    if (VOID.has(name) || (foreign && html.charCodeAt(end - 1) === 47)) {
      depth = Math.max(depth, open.length + 1)
      text()
      continue
    }
    open.push(name)
    // A parser may add a tbody and a tr a table's markup leaves out: counted as if it did.
    if (name === 'table' && !foreign) open.push('tbody', 'tr')
    if (!foreign) html5 = open.length
    depth = Math.max(depth, open.length)
    if (foreign) {
      text()
      continue
    }
    if (name === 'plaintext') break
    const rawEnd = RAW_TEXT_END.get(name)
    if (rawEnd !== undefined) {
      // Its content is text, up to its end tag (read next, closing it).
      rawEnd.lastIndex = next
      const found = rawEnd.exec(html)
      if (found === null) break
      at = found.index
      continue
    }
    text()
  }
  return { depth, copies }
}
