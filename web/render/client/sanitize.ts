/**
 * What a component's markup may hold when it reaches a document, applied
 * by the renderer frame (before the markup leaves it) and again by each
 * display frame (on the markup it is about to show). DOMPurify, in its own
 * inert document, removes scripts and every `on*` attribute; on top of it:
 *
 * - no `script`, `link`, `meta`, `base`, `iframe`, `frame`, `object`,
 *   `embed`, `form` or `portal` element, and no `ping`, `autofocus`,
 *   `srcdoc`, `action`, `formaction`, `target` or `http-equiv` attribute;
 * - a resource a slide loads must be a `data:` URL or an image its
 *   `slide.content.json` names (`../image-urls.ts`: a path of the
 *   emulator's own origin outside its API and control plane, or, with
 *   `--allow-remote-images`, a remote URL), judged on the URL as the
 *   browser resolves it. That holds for every attribute: `src`, `srcset`,
 *   `poster` and the like as URLs; an `href` keeps only a same-document
 *   `#id`, but on SVG's `image` and `feImage`; any other attribute (a
 *   `style`, an SVG `fill`, `mask`, `clip-path`, `filter`, `marker-*`, a
 *   `data-*`) is read as CSS by its tokens (`../css-urls.ts`), and so is a
 *   `<style>` element, rule by rule and then as a whole. What is not
 *   allowed is removed, so nothing is even requested; the frame's
 *   Content-Security-Policy names only those images anyway;
 * - a link keeps only an in-page `#fragment`.
 */
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify'
import { cssUrlsAllowed, mayHoldCssUrl } from '../css-urls.js'
import { FORBIDDEN_ATTRIBUTES, FORBIDDEN_TAGS } from '../forbidden.js'
import { allowedImageUrls, frameMayLoad } from '../image-urls.js'
import { PICTURE_DROPPED_PROPERTIES, SVG_ANIMATION_ELEMENTS } from '../picture.js'

/** Attributes whose value is a URL the browser would load (by local name; `href` and `srcset` have rules of their own). */
const RESOURCE_ATTRIBUTES = new Set([
  'src',
  'poster',
  'background',
  'lowsrc',
  'dynsrc',
  'data',
  'icon',
  'manifest',
  'codebase',
  'archive',
  'longdesc',
])

/** Elements whose `href` loads an image (SVG's `image` and `feImage`); on any other, an `href` may only name an element of the same document. */
const IMAGE_HREF_ELEMENTS = new Set(['image', 'feimage'])

/** Which resources a slide may load. */
export interface ResourcePolicy {
  /** The emulator's origin (`http://host:port`). */
  origin: string
  /** The base URL relative references resolve against. */
  base: string
  /** The images the slide's content names (`slideImages`: paths of the emulator's own origin, and remote URLs with `--allow-remote-images`). */
  allowed: readonly string[]
}

const allowedUrls = new WeakMap<readonly string[], Set<string>>()

/** Whether a slide may load `raw` (an attribute value or a CSS URL, as the browser reads it); with `fragments`, a same-document `#id` too. */
export function resourceAllowed(raw: string, policy: ResourcePolicy, fragments = false): boolean {
  let allowed = allowedUrls.get(policy.allowed)
  if (allowed === undefined) {
    allowed = allowedImageUrls(policy.allowed, policy.origin)
    allowedUrls.set(policy.allowed, allowed)
  }
  return frameMayLoad(raw, policy.base, allowed, fragments)
}

/** Whether every URL a CSS text (a value, a declaration list, a rule, a stylesheet) names is allowed, read from its tokens. */
export function cssAllowed(css: string, policy: ResourcePolicy): boolean {
  return cssUrlsAllowed(css, (url) => resourceAllowed(url, policy, true))
}

const SRCSET_SPACE = /[\t\n\f\r ]/

/** The URLs of a `srcset`, as HTML's parser reads its candidates (a URL may hold commas; a descriptor ends at a comma outside parentheses). */
export function srcsetUrls(value: string): string[] {
  const urls: string[] = []
  let at = 0
  while (at < value.length) {
    while (at < value.length && (SRCSET_SPACE.test(value[at]!) || value[at] === ',')) at++
    if (at >= value.length) break
    const start = at
    while (at < value.length && !SRCSET_SPACE.test(value[at]!)) at++
    let url = value.slice(start, at)
    if (url.endsWith(',')) {
      url = url.replace(/,+$/, '')
    } else {
      let parenthesised = false
      while (at < value.length) {
        const char = value[at++]
        if (char === '(') parenthesised = true
        else if (char === ')') parenthesised = false
        else if (char === ',' && !parenthesised) break
      }
    }
    urls.push(url)
  }
  return urls
}

/** Whether an attribute of a sanitised element may stay: every URL it would load is allowed, whether it is a URL, a `srcset` or CSS. */
function attributeAllowed(element: Element, attribute: Attr, policy: ResourcePolicy): boolean {
  const name = attribute.name.toLowerCase()
  const local = attribute.localName.toLowerCase()
  const value = attribute.value
  if (local === 'href' || name.endsWith(':href')) {
    // A link, an SVG `use`, `pattern` or gradient keeps only a reference to an element of the same document.
    if (IMAGE_HREF_ELEMENTS.has(element.localName.toLowerCase())) return resourceAllowed(value, policy)
    return value.trim().startsWith('#')
  }
  if (RESOURCE_ATTRIBUTES.has(local)) return resourceAllowed(value, policy)
  if (local === 'srcset' || local === 'imagesrcset') return srcsetUrls(value).every((url) => resourceAllowed(url, policy))
  // Any other attribute, read as CSS (a `style`, an SVG `fill`, `mask`, `clip-path`, `filter` or
  // `marker-start`, a `data-*` a CSS `attr()` could read): every URL it holds must be allowed.
  return !mayHoldCssUrl(value) || cssAllowed(value, policy)
}

function filterDeclarations(style: CSSStyleDeclaration, policy: ResourcePolicy): void {
  for (let i = style.length - 1; i >= 0; i--) {
    const name = style.item(i)
    if (!cssAllowed(style.getPropertyValue(name), policy)) style.removeProperty(name)
  }
}

interface RuleOwner {
  cssRules: CSSRuleList
  deleteRule(index: number): void
}

function filterRules(owner: RuleOwner, policy: ResourcePolicy): void {
  for (let i = owner.cssRules.length - 1; i >= 0; i--) {
    const rule = owner.cssRules[i]!
    if (rule instanceof CSSImportRule) {
      owner.deleteRule(i)
      continue
    }
    if (rule instanceof CSSStyleRule || rule instanceof CSSFontFaceRule || rule instanceof CSSPageRule) {
      filterDeclarations(rule.style, policy)
    }
    if (rule instanceof CSSKeyframesRule) {
      for (const keyframe of Array.from(rule.cssRules)) filterDeclarations((keyframe as CSSKeyframeRule).style, policy)
    }
    if ('cssRules' in rule && 'deleteRule' in rule && !(rule instanceof CSSKeyframesRule)) filterRules(rule as unknown as RuleOwner, policy)
    // Any other rule (@counter-style, @property, …) goes if its text names a URL that is not allowed.
    if (!cssAllowed(rule.cssText, policy)) owner.deleteRule(i)
  }
}

/** A stylesheet's text with every rule or declaration that loads a resource not allowed removed (parsed and written out by the browser's own CSS parser). */
export function sanitizeStyleText(text: string, policy: ResourcePolicy): string {
  const sheet = new CSSStyleSheet()
  try {
    sheet.replaceSync(text)
  } catch {
    return ''
  }
  filterRules(sheet, policy)
  const kept = Array.from(sheet.cssRules, (rule) => rule.cssText).join('\n')
  // The text as written out is read once more as a whole: a rule the filter did not know cannot carry a URL through.
  return cssAllowed(kept, policy) ? kept : ''
}

const CONFIG: Config = {
  USE_PROFILES: { html: true, svg: true, svgFilters: true },
  FORBID_TAGS: [...FORBIDDEN_TAGS],
  FORBID_ATTR: [...FORBIDDEN_ATTRIBUTES],
  ALLOW_DATA_ATTR: true,
  ALLOW_UNKNOWN_PROTOCOLS: false,
  // A component's ids and names stay as written (`id="title"` included): DOMPurify's guard against DOM
  // clobbering protects scripts that read `document.<name>`, and the frames' scripts keep what they use before any markup arrives.
  SANITIZE_DOM: false,
}

/** What a sanitiser gives: the markup as nodes (for a display frame), or as HTML and XHTML text from one pass (for the page: a display frame's markup and a picture's). */
export interface Sanitizer {
  toFragment(html: string): DocumentFragment
  /** `html` as HTML text and as XHTML (well-formed XML, for a slide's picture): one sanitising pass, written out twice. */
  toMarkup(html: string): { html: string; xhtml: string }
}

/** The sanitised nodes of a picture, made still: the dropped properties out of every style attribute, SVG animation elements out. */
export function stillPicture<Nodes extends ParentNode>(fragment: Nodes): Nodes {
  for (const element of Array.from(fragment.querySelectorAll('*'))) {
    if (SVG_ANIMATION_ELEMENTS.includes(element.localName)) {
      element.remove()
      continue
    }
    const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined
    if (style === undefined || !element.hasAttribute('style')) continue
    for (const name of PICTURE_DROPPED_PROPERTIES) style.removeProperty(name)
    if (style.length === 0) element.removeAttribute('style')
  }
  return fragment
}

/** How the browser's XML serialiser writes a `body` of the XHTML namespace around its children. */
const XHTML_BODY_START = '<body xmlns="http://www.w3.org/1999/xhtml">'
const XHTML_BODY_END = '</body>'

/** A sanitiser for one frame, with its resource policy. */
export function createSanitizer(policy: ResourcePolicy): Sanitizer {
  const purify: DOMPurify = createDOMPurify(window)
  const serializer = new XMLSerializer()
  purify.addHook('uponSanitizeElement', (node, data) => {
    if (data.tagName === 'style') node.textContent = sanitizeStyleText(node.textContent ?? '', policy)
  })
  purify.addHook('afterSanitizeAttributes', (node) => {
    const element = node as Element
    if (typeof element.getAttribute !== 'function') return
    // A style attribute loses only the declarations that load what is not allowed; the rest stays.
    const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined
    if (style !== undefined && element.hasAttribute('style')) {
      filterDeclarations(style, policy)
      if (style.length === 0) element.removeAttribute('style')
    }
    for (const attribute of Array.from(element.attributes)) {
      if (!attributeAllowed(element, attribute, policy)) element.removeAttributeNode(attribute)
    }
  })
  return {
    toFragment: (html) => purify.sanitize(html, { ...CONFIG, RETURN_DOM_FRAGMENT: true }) as unknown as DocumentFragment,
    toMarkup(html) {
      // DOMPurify's own string form is its body's `innerHTML`: the same text, from the same pass.
      const body = purify.sanitize(html, { ...CONFIG, RETURN_DOM: true }) as unknown as HTMLElement
      const text = body.innerHTML
      if (!body.hasChildNodes()) return { html: text, xhtml: '' }
      // The browser's own serialiser writes the nodes as XML. Written from their `body` (its attributes, which
      // the HTML form leaves out too, removed first), only the body declares the XHTML namespace, which the
      // picture's root declares again: written from a fragment, each top-level element would declare it.
      // A picture is still (`../picture.ts`): no style attribute keeps what moves or costs the most to paint
      // (its `!important` would win over the picture's stylesheet), and no SVG animation element stays.
      for (const name of body.getAttributeNames()) body.removeAttribute(name)
      const xml = serializer.serializeToString(stillPicture(body))
      if (!xml.startsWith(XHTML_BODY_START) || !xml.endsWith(XHTML_BODY_END))
        throw new Error('The sanitised markup could not be written as XHTML.')
      return { html: text, xhtml: xml.slice(XHTML_BODY_START.length, xml.length - XHTML_BODY_END.length) }
    },
  }
}
