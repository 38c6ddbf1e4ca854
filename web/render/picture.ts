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
 */
import { SLIDE_HEIGHT, SLIDE_WIDTH } from './limits.js'

/** The slide's box: what a display frame's `#slide-root` and a picture's root share. */
export const SLIDE_BOX_CSS = `#slide-root{position:absolute;left:0;top:0;width:${SLIDE_WIDTH}px;height:${SLIDE_HEIGHT}px;transform-origin:0 0;overflow:hidden;container-type:size;background:var(--slide-bg,#fff);color:var(--slide-fg,#0f172a);font-family:var(--slide-font,system-ui,sans-serif)}`

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
    `<div xmlns="http://www.w3.org/1999/xhtml" id="slide-root"><style>${cdata(`${SLIDE_BOX_CSS}\n${css}`)}</style>${xhtml}</div>` +
    '</foreignObject></svg>'
  return `${PICTURE_URL_PREFIX}${encodeURIComponent(svg)}`
}
