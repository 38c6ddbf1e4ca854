/**
 * The shape of a component's markup, read from its text before any
 * document parses it (by the worker that rendered it, and again by the
 * renderer frame, whose sanitiser parses it on the frame's one thread).
 *
 * An HTML parser's work grows faster than the markup when elements nest
 * deeper than it keeps (Chromium keeps 512 levels and puts deeper elements
 * beside the 512th, after a walk that costs more with every level: 280,000
 * characters of nested `<i>` took 9 s to parse, 40,000 levels), so a slide
 * may nest at most `MAX_MARKUP_DEPTH` levels: a browser would not show it
 * deeper anyway. Nothing here runs slide code.
 */

/** The deepest nesting of elements a slide's markup may have (Chromium's parser keeps 512 levels). */
export const MAX_MARKUP_DEPTH = 512

/** The `too-large` message of markup nested deeper than `MAX_MARKUP_DEPTH`. */
export function markupTooDeep(depth: number): string {
  return `The component's markup nests elements ${depth.toLocaleString('en')} deep, over the ${MAX_MARKUP_DEPTH} a slide may have (a browser shows no deeper nesting), so it is not shown.`
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

/** Each raw-text element's end tag, found from where its content starts. */
const RAW_TEXT_END = new Map([...RAW_TEXT].map((name) => [name, new RegExp(`</${name}[\\s/>]`, 'gi')]))

const isLetter = (code: number) => (code >= 65 && code <= 90) || (code >= 97 && code <= 122)
/** Where a tag's name ends: white space, `/` or `>`. */
const endsName = (code: number) => code === 32 || code === 9 || code === 10 || code === 12 || code === 13 || code === 47 || code === 62

/**
 * How deep the markup's elements nest, read from its tags as a parser
 * would keep them open: an end tag closes the innermost open element of its
 * name and everything inside it (one with no open element of its name
 * closes nothing), a void element and (in SVG or MathML) a `/>` tag close
 * at once, the content of a raw-text element is text, and everything after
 * `<plaintext>` too. A start tag always opens: what this reads is never
 * shallower than what a parser builds from well-formed markup (React's),
 * and bounds the rest too. One pass, each character read once or twice.
 */
export function markupDepth(html: string): number {
  const open: string[] = []
  /** How many of `open` are outside SVG and MathML (the rest are in foreign content). */
  let html5 = 0
  let deepest = 0
  let at = html.indexOf('<')
  while (at !== -1) {
    if (html.startsWith('<!--', at)) {
      const end = html.indexOf('-->', at + 4)
      if (end === -1) break
      at = html.indexOf('<', end + 3)
      continue
    }
    const closing = html.charCodeAt(at + 1) === 47
    const from = at + (closing ? 2 : 1)
    if (!isLetter(html.charCodeAt(from))) {
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
    if (closing) {
      const innermost = open.lastIndexOf(name)
      if (innermost !== -1) {
        open.length = innermost
        html5 = Math.min(html5, open.length)
      }
      at = html.indexOf('<', next)
      continue
    }
    const foreign = open.length > html5 || name === 'svg' || name === 'math'
    if (VOID.has(name) || (foreign && html.charCodeAt(end - 1) === 47)) {
      deepest = Math.max(deepest, open.length + 1)
      at = html.indexOf('<', next)
      continue
    }
    open.push(name)
    if (!foreign) html5 = open.length
    deepest = Math.max(deepest, open.length)
    if (foreign) {
      at = html.indexOf('<', next)
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
    at = html.indexOf('<', next)
  }
  return deepest
}
