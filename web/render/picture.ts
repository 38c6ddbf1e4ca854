/**
 * A slide as a picture: its sanitised markup (as XHTML) and the deck's
 * stylesheet in an SVG `foreignObject`, as a `data:image/svg+xml` URL. The
 * thumbnails and the overview show each slide this way, in an `<img>`.
 *
 * An SVG shown as an image is the browser's own sandbox, stricter than a
 * frame: it runs no script, loads nothing (not even from the emulator's
 * origin: only `data:` images show) and takes no input. The page builds
 * the URL by joining text: it never parses the markup; the image decoder
 * does, in that mode. Markup that is not well-formed XML (a renderer frame
 * that misbehaves) gives an image that fails to load, nothing else.
 *
 * Why pictures and not a display frame per thumbnail: in headless
 * Chromium on the 2-core machine, 30 sandboxed frames took 2.2 to 3.6 s to
 * load, 30 such pictures a few milliseconds
 * (`docs/decisions/0202-render-sandbox.md`).
 *
 * A picture is still and cheap to paint: its stylesheet begins with
 * `PICTURE_STILL_CSS`, which stops every animation and transition and
 * drops filters, backdrop filters, shadows, blend modes and `will-change`
 * on every element and pseudo-element, and the sanitiser's XHTML has no
 * such declaration in a style attribute and no SVG animation element
 * (`client/sanitize.ts`). An animated SVG image is drawn again at each
 * step, with the page around it: a deck of 300 blurred elements a slide
 * animated every 50 ms had the editor paint 1 frame in 16 s with the
 * overview open. The stage (a display frame) keeps the slide's CSS.
 */
import { SLIDE_HEIGHT, SLIDE_WIDTH } from './limits.js'

/** The slide's box: what a display frame's `#slide-root` and a picture's root share. */
export const SLIDE_BOX_CSS = `#slide-root{position:absolute;left:0;top:0;width:${SLIDE_WIDTH}px;height:${SLIDE_HEIGHT}px;transform-origin:0 0;overflow:hidden;container-type:size;background:var(--slide-bg,#fff);color:var(--slide-fg,#0f172a);font-family:var(--slide-font,system-ui,sans-serif)}`

/**
 * The properties a picture drops: what moves (animations, transitions) and what costs the most to
 * paint (filters, backdrop filters, box and text shadows, blend modes, and `will-change`, which asks
 * for layers of their own). By their CSS names; `-webkit-` aliases are the same properties.
 */
export const PICTURE_DROPPED_PROPERTIES = [
  'animation',
  'transition',
  'filter',
  'backdrop-filter',
  'box-shadow',
  'text-shadow',
  'mix-blend-mode',
  'will-change',
] as const

const STILL_VALUES: Record<(typeof PICTURE_DROPPED_PROPERTIES)[number], string> = {
  animation: 'none',
  transition: 'none',
  filter: 'none',
  'backdrop-filter': 'none',
  'box-shadow': 'none',
  'text-shadow': 'none',
  'mix-blend-mode': 'normal',
  'will-change': 'auto',
}

const STILL_DECLARATIONS = PICTURE_DROPPED_PROPERTIES.map((name) => `${name}:${STILL_VALUES[name]}!important`).join(';')
/** One rule per selector: a pseudo-element a browser does not know would void a whole selector list. */
const STILL_SELECTORS = [
  '*',
  '*::before',
  '*::after',
  '*::marker',
  '*::first-letter',
  '*::first-line',
  '*::placeholder',
  '*::backdrop',
  '*::file-selector-button',
]
/**
 * The first rules of a picture's stylesheet: every dropped property at its initial value, on every
 * element and pseudo-element, `!important` in an anonymous cascade layer declared before anything
 * else. Important declarations of the first layer win over every later layer and every unlayered
 * rule, whatever their specificity, and an anonymous layer cannot be added to by the slide. Only a
 * style attribute's `!important` would win: the sanitiser's XHTML has none of these properties there.
 */
export const PICTURE_STILL_CSS = `@layer{${STILL_SELECTORS.map((selector) => `${selector}{${STILL_DECLARATIONS}}`).join('')}}`

/** SVG's animation elements (by local name), which no picture holds (the sanitiser removes them before this too). */
export const SVG_ANIMATION_ELEMENTS: readonly string[] = ['animate', 'animateMotion', 'animateTransform', 'animateColor', 'set', 'discard']

export const PICTURE_URL_PREFIX = 'data:image/svg+xml;charset=utf-8,'

/** Text as the content of a CDATA section (which cannot hold `]]>` itself). */
function cdata(text: string): string {
  return `<![CDATA[${text.replaceAll(']]>', ']]]]><![CDATA[>')}]]>`
}

/** The `data:` URL of a slide's picture: `css` is the deck's stylesheet (the page's own), `xhtml` the renderer's sanitised markup. */
export function slidePicture(css: string, xhtml: string): string {
  const svg =
    `<svg xmlns="http://www.w3.org/2000/svg" width="${SLIDE_WIDTH}" height="${SLIDE_HEIGHT}" viewBox="0 0 ${SLIDE_WIDTH} ${SLIDE_HEIGHT}">` +
    `<foreignObject x="0" y="0" width="${SLIDE_WIDTH}" height="${SLIDE_HEIGHT}">` +
    `<div xmlns="http://www.w3.org/1999/xhtml" id="slide-root"><style>${cdata(`${PICTURE_STILL_CSS}\n${SLIDE_BOX_CSS}\n${css}`)}</style>${xhtml}</div>` +
    '</foreignObject></svg>'
  return `${PICTURE_URL_PREFIX}${encodeURIComponent(svg)}`
}
