/**
 * A display frame (`/_emulator/assets/render/slide.html`, one per place a
 * page shows a slide: the stage, a thumbnail): it shows the markup the page
 * relays from the renderer frame, sanitised again here on the very markup
 * it inserts, with the slide's stylesheet, in the slide's 16:9 box scaled
 * to the frame. It runs no slide code; its CSP allows images only from
 * `data:` and the exact paths of the images its address names (those its
 * slide's content names: the emulator's own, and remote ones with
 * `--allow-remote-images`), no fetch, no form, no frame.
 */
import { FRAME_KEY_PARAM, IMAGE_PARAM, MAX_MARKUP_CHARS, SLIDE_HEIGHT, SLIDE_WIDTH } from '../limits.js'
import { type FromDisplay, RENDER_PROTOCOL, type ToDisplay } from '../protocol.js'
import { createSanitizer } from './sanitize.js'

const base = document.baseURI
const origin = new URL(base).origin
/** Where answers go: the page that framed this one; a published site's, in an opaque origin, framed it with the emulator's frame key (see `renderer.ts`). */
const pageTarget = new URL(base).searchParams.has(FRAME_KEY_PARAM) ? '*' : origin

function start(): void {
  const page = window.parent
  const box = document.getElementById('slide-root') as HTMLElement
  const style = document.getElementById('slide-css') as HTMLStyleElement
  const sanitizer = createSanitizer({ origin, base, allowed: new URLSearchParams(location.search).getAll(IMAGE_PARAM) })
  const tell = (message: FromDisplay) => page.postMessage(message, pageTarget)

  const scaleToFrame = () => {
    const scale = Math.min(window.innerWidth / SLIDE_WIDTH, window.innerHeight / SLIDE_HEIGHT)
    box.style.transform = `translate(${(window.innerWidth - SLIDE_WIDTH * scale) / 2}px, ${(window.innerHeight - SLIDE_HEIGHT * scale) / 2}px) scale(${scale})`
  }
  window.addEventListener('resize', scaleToFrame)
  scaleToFrame()

  window.addEventListener('message', (event) => {
    if (event.source !== page) return
    const message = event.data as Partial<ToDisplay> | null
    if (message?.protocol !== RENDER_PROTOCOL || message.type !== 'show') return
    const { css, html, seq } = message
    if (
      typeof css !== 'string' ||
      typeof html !== 'string' ||
      typeof seq !== 'number' ||
      html.length > MAX_MARKUP_CHARS ||
      css.length > MAX_MARKUP_CHARS
    )
      return
    style.textContent = css
    box.replaceChildren(sanitizer.toFragment(html))
    tell({ protocol: RENDER_PROTOCOL, type: 'shown', seq })
  })
  tell({ protocol: RENDER_PROTOCOL, type: 'ready' })
}

if (window.parent === window) {
  document.body.textContent =
    'This is a slide display of the emulator’s pages: it shows a slide the editor or a site sends it. Opened on its own, it shows nothing.'
} else {
  start()
}
