/**
 * What a component's markup may hold when it reaches a document, applied
 * by the renderer frame (before the markup leaves it) and again by each
 * display frame (on the markup it is about to show). DOMPurify, in its own
 * inert document, removes scripts and every `on*` attribute; on top of it:
 *
 * - no `script`, `link`, `meta`, `base`, `iframe`, `frame`, `object`,
 *   `embed`, `form` or `portal` element, and no `ping`, `autofocus`,
 *   `srcdoc`, `action`, `formaction`, `target` or `http-equiv` attribute;
 * - a resource a slide loads (an `src`, `srcset`, `poster`, SVG `href`, a
 *   CSS `url()` in a `style` attribute or element, `@import`, `@font-face`)
 *   must be a `data:` URL, a path on the emulator's own origin outside its
 *   API and control plane, or (with `--allow-remote-images`) a URL the
 *   slide's content names verbatim. Anything else is removed, so nothing
 *   is even requested; the frame's Content-Security-Policy refuses it
 *   anyway;
 * - a link keeps only an in-page `#fragment`.
 */
import createDOMPurify, { type Config, type DOMPurify } from 'dompurify'
import { imagePathAllowed } from '../limits.js'

/** Elements that never reach a document. */
export const FORBIDDEN_TAGS = [
  'script',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'form',
  'portal',
  'noscript',
]

/** Attributes that never reach a document (DOMPurify removes every `on*` attribute itself). */
export const FORBIDDEN_ATTRIBUTES = ['ping', 'autofocus', 'srcdoc', 'action', 'formaction', 'target', 'http-equiv']

/** Attributes whose value is a URL the browser would load. */
const RESOURCE_ATTRIBUTES = [
  'src',
  'poster',
  'background',
  'lowsrc',
  'dynsrc',
  'data',
  'xlink:href',
  'icon',
  'manifest',
  'codebase',
  'archive',
  'longdesc',
]

/** Which resources a slide may load. */
export interface ResourcePolicy {
  /** The emulator's origin (`http://host:port`). */
  origin: string
  /** The base URL relative references resolve against. */
  base: string
  /** Remote URLs the slide's content names verbatim (only with `--allow-remote-images`). */
  allowed: readonly string[]
}

/** Whether a slide may load `raw` (an attribute value or a CSS URL, as written). */
export function resourceAllowed(raw: string, policy: ResourcePolicy): boolean {
  const value = raw.trim()
  if (value === '') return true
  if (/^data:/i.test(value)) return true
  if (policy.allowed.includes(value)) return true
  let url: URL
  try {
    url = new URL(value, policy.base)
  } catch {
    return false
  }
  return (url.protocol === 'http:' || url.protocol === 'https:') && url.origin === policy.origin && imagePathAllowed(url.pathname)
}

/** The URLs of a `srcset` (each candidate's first token). */
function srcsetUrls(value: string): string[] {
  return value
    .split(',')
    .map((candidate) => candidate.trim().split(/\s+/)[0] ?? '')
    .filter((url) => url !== '')
}

const CSS_URL = /url\(\s*(?:"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'|([^)"'\s]*))\s*\)/gi
const CSS_STRING = /"((?:[^"\\]|\\[\s\S])*)"|'((?:[^'\\]|\\[\s\S])*)'/g
/** CSS functions whose strings are URLs (`image-set("a.png" 1x)`). */
const CSS_URL_STRING_FUNCTIONS = /(?:image-set|src|image|cross-fade)\(/i

/** A CSS string's value, its escapes undone. */
function unescapeCss(text: string): string {
  return text.replace(/\\(?:([0-9a-fA-F]{1,6})\s?|([\s\S]))/g, (_, hex: string | undefined, char: string | undefined) => {
    if (hex !== undefined) {
      const code = Number.parseInt(hex, 16)
      return code === 0 || code > 0x10ffff ? '\ufffd' : String.fromCodePoint(code)
    }
    return char === '\n' ? '' : (char ?? '')
  })
}

/** Whether every URL a CSS value (or rule text) names is allowed. */
export function cssAllowed(value: string, policy: ResourcePolicy): boolean {
  for (const match of value.matchAll(CSS_URL)) {
    if (!resourceAllowed(unescapeCss(match[1] ?? match[2] ?? match[3] ?? ''), policy)) return false
  }
  if (CSS_URL_STRING_FUNCTIONS.test(value)) {
    for (const match of value.matchAll(CSS_STRING)) if (!resourceAllowed(unescapeCss(match[1] ?? match[2] ?? ''), policy)) return false
  }
  // A `url(` the pattern did not read (an escape in its name, say): refused rather than guessed at.
  const urls = (value.match(/url\(/gi) ?? []).length
  return urls === [...value.matchAll(CSS_URL)].length
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
  return Array.from(sheet.cssRules, (rule) => rule.cssText).join('\n')
}

const CONFIG: Config = {
  USE_PROFILES: { html: true, svg: true, svgFilters: true },
  FORBID_TAGS: FORBIDDEN_TAGS,
  FORBID_ATTR: FORBIDDEN_ATTRIBUTES,
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
    for (const name of RESOURCE_ATTRIBUTES) {
      const value = element.getAttribute(name)
      if (value !== null && !resourceAllowed(value, policy)) element.removeAttribute(name)
    }
    for (const name of ['srcset', 'imagesrcset']) {
      const value = element.getAttribute(name)
      if (value !== null && !srcsetUrls(value).every((url) => resourceAllowed(url, policy))) element.removeAttribute(name)
    }
    const href = element.getAttribute('href')
    if (href !== null) {
      const local = element.localName
      // SVG loads what `href` names on these; a link keeps only an in-page fragment.
      const loads = local === 'image' || local === 'use' || local === 'feImage' || local === 'feimage'
      if (loads ? !resourceAllowed(href, policy) : !href.trim().startsWith('#')) element.removeAttribute('href')
    }
    const style = (element as HTMLElement).style as CSSStyleDeclaration | undefined
    if (style !== undefined && element.hasAttribute('style')) {
      filterDeclarations(style, policy)
      if (style.length === 0) element.removeAttribute('style')
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
      for (const name of body.getAttributeNames()) body.removeAttribute(name)
      const xml = serializer.serializeToString(body)
      if (!xml.startsWith(XHTML_BODY_START) || !xml.endsWith(XHTML_BODY_END))
        throw new Error('The sanitised markup could not be written as XHTML.')
      return { html: text, xhtml: xml.slice(XHTML_BODY_START.length, xml.length - XHTML_BODY_END.length) }
    },
  }
}
