/**
 * Layout findings: what a rendered slide looks like where it may not look
 * as meant, measured in the display frame that shows it (`slide.html`, as
 * the editor's stage does), in the slide's own 1280 × 720 box:
 *
 * - `outside-slide`: an element drawn (partly) outside the box, not clipped
 *   by an ancestor inside the slide (the box itself hides it: a reader sees
 *   it cut off at the slide's edge);
 * - `text-clipped`: text drawn (partly) outside the padding box of an
 *   element with `overflow: hidden` or `clip`, which hides it there (a
 *   decoration that overflows is not text, and is not reported);
 * - `image-failed`: an `<img>` that did not load (a wrong path, an origin
 *   the slide may not load from, bytes that are not an image);
 * - `text-too-small`: text whose size, at the slide's scale, is under
 *   `MIN_TEXT_PX` (12 CSS px), transforms included.
 *
 * `measureLayout` runs in the display frame (the checker's browser
 * evaluates it there, after the slide's images have loaded or failed): it
 * is self-contained, reads only layout, and changes nothing. Each code is
 * reported for the outermost elements only (a box outside the slide is
 * one finding, not one per descendant), at most `MAX_FINDINGS_PER_CODE`
 * times.
 */
import type { LayoutFinding } from '../../src/model/slide-checker.js'

/** How many findings of one code a slide reports at most (the first ones in document order). */
export const MAX_FINDINGS_PER_CODE = 20

/** What `measureLayout` is given: the slide's box and the thresholds. */
export interface LayoutMeasureInput {
  rootId: string
  slideWidth: number
  slideHeight: number
  minTextPx: number
  maxPerCode: number
}

/** Runs in the display frame: the slide's layout findings. Self-contained (it is sent to the browser as text). */
export function measureLayout(input: LayoutMeasureInput): LayoutFinding[] {
  const root = document.getElementById(input.rootId)
  if (root === null) return []
  const rootRect = root.getBoundingClientRect()
  const scale = rootRect.width / input.slideWidth || 1
  const findings: LayoutFinding[] = []
  const counts: Record<string, number> = {}
  const add = (finding: LayoutFinding) => {
    counts[finding.code] = (counts[finding.code] ?? 0) + 1
    if (counts[finding.code]! <= input.maxPerCode) findings.push(finding)
  }
  const round = (n: number) => Math.round(n * 10) / 10
  const boxOf = (rect: DOMRect) => ({
    x: round((rect.left - rootRect.left) / scale),
    y: round((rect.top - rootRect.top) / scale),
    width: round(rect.width / scale),
    height: round(rect.height / scale),
  })
  const nameOf = (element: Element) => {
    let name = element.localName
    if (element.id !== '') name += `#${element.id}`
    const classes = typeof element.className === 'string' ? element.className.trim().split(/\s+/).filter(Boolean) : []
    if (classes.length > 0) name += `.${classes.slice(0, 2).join('.')}`
    return name
  }
  const pathOf = (element: Element) => {
    const parts: string[] = []
    for (let node: Element | null = element; node !== null && node !== root && parts.length < 4; node = node.parentElement) {
      parts.unshift(nameOf(node))
    }
    return parts.join(' > ')
  }
  const textOf = (element: Element) => {
    const text = (element.textContent ?? '').replace(/\s+/g, ' ').trim()
    return text.length > 80 ? `${text.slice(0, 79)}…` : text
  }
  const clips = (style: CSSStyleDeclaration) =>
    ['hidden', 'clip', 'scroll', 'auto'].includes(style.overflowX) || ['hidden', 'clip', 'scroll', 'auto'].includes(style.overflowY)
  const hides = (style: CSSStyleDeclaration) => ['hidden', 'clip'].includes(style.overflowX) || ['hidden', 'clip'].includes(style.overflowY)
  /** Elements already reported outside the slide, or clipping their content: their descendants are not reported again. */
  const outside = new Set<Element>()
  const clipping = new Set<Element>()
  const within = (element: Element, set: Set<Element>) => {
    for (let node = element.parentElement; node !== null && node !== root; node = node.parentElement) if (set.has(node)) return true
    return false
  }
  const small = new Set<Element>()
  // A pixel of the picture, in slide pixels: what rounding may move a box by.
  const EDGE = Math.max(0.5, 1 / scale)
  /** The first piece of text inside `element` drawn (partly) outside its padding box, which `overflow` hides; undefined when all shows. */
  const clippedText = (element: HTMLElement, rect: DOMRect): string | undefined => {
    const own = element.offsetWidth > 0 ? rect.width / element.offsetWidth : scale
    const left = rect.left + element.clientLeft * own
    const top = rect.top + element.clientTop * own
    const right = left + element.clientWidth * own
    const bottom = top + element.clientHeight * own
    const slack = EDGE * scale
    const walker = document.createTreeWalker(element, NodeFilter.SHOW_TEXT)
    const range = document.createRange()
    let seen = 0
    for (let node = walker.nextNode(); node !== null && seen < 2_000; node = walker.nextNode()) {
      const data = node.textContent ?? ''
      if (data.trim() === '') continue
      seen += 1
      range.selectNodeContents(node)
      for (const box of range.getClientRects()) {
        if (box.width === 0 || box.height === 0) continue
        if (box.right > right + slack || box.bottom > bottom + slack || box.left < left - slack || box.top < top - slack) {
          const text = data.replace(/\s+/g, ' ').trim()
          return text.length > 40 ? `${text.slice(0, 39)}…` : text
        }
      }
    }
    return undefined
  }
  for (const element of root.querySelectorAll('*')) {
    const style = getComputedStyle(element)
    if (style.display === 'none') continue
    const rect = element.getBoundingClientRect()
    const drawn = rect.width > 0 && rect.height > 0 && style.visibility !== 'hidden'

    if (drawn && !within(element, outside) && !within(element, clipping)) {
      const box = boxOf(rect)
      if (box.x < -EDGE || box.y < -EDGE || box.x + box.width > input.slideWidth + EDGE || box.y + box.height > input.slideHeight + EDGE) {
        outside.add(element)
        const text = textOf(element)
        add({
          code: 'outside-slide',
          message: `${pathOf(element)} is drawn outside the slide's ${input.slideWidth} × ${input.slideHeight} box (at ${box.x}, ${box.y}, ${box.width} × ${box.height}): a reader sees it cut off at the slide's edge`,
          element: pathOf(element),
          ...(text === '' ? {} : { text }),
          box,
        })
      }
    }
    if (clips(style)) clipping.add(element)

    if (drawn && hides(style) && element instanceof HTMLElement) {
      const clipped = clippedText(element, rect)
      if (clipped !== undefined) {
        const text = textOf(element)
        add({
          code: 'text-clipped',
          message: `${pathOf(element)} hides part of its text (overflow: ${style.overflowX === style.overflowY ? style.overflowX : `${style.overflowX} ${style.overflowY}`}): "${clipped}" runs past its ${round(element.clientWidth)} × ${round(element.clientHeight)} px box`,
          element: pathOf(element),
          text,
          box: boxOf(rect),
        })
      }
    }

    if (element instanceof HTMLImageElement && (!element.complete || element.naturalWidth === 0)) {
      const src = element.getAttribute('src') ?? ''
      const shown = src.length > 80 ? `${src.slice(0, 79)}…` : src
      add({
        code: 'image-failed',
        message:
          src === ''
            ? `${pathOf(element)} has no address it may load (an image from another origin is not loaded unless the emulator runs with --allow-remote-images)`
            : `${pathOf(element)} did not load ${shown}`,
        element: pathOf(element),
        ...(src === '' ? {} : { text: shown }),
        box: boxOf(rect),
      })
    }

    if (drawn && !small.has(element)) {
      let ownText = false
      for (const child of element.childNodes) {
        if (child.nodeType === Node.TEXT_NODE && (child.textContent ?? '').trim() !== '') {
          ownText = true
          break
        }
      }
      if (ownText) {
        const fontPx = Number.parseFloat(style.fontSize)
        // The element's own scale (transforms of its own and of its ancestors), relative to the slide's.
        const layoutWidth = element instanceof HTMLElement ? element.offsetWidth : 0
        const own = layoutWidth > 0 ? rect.width / layoutWidth : scale
        const atSlideScale = round((fontPx * own) / scale)
        if (Number.isFinite(atSlideScale) && atSlideScale < input.minTextPx) {
          small.add(element)
          add({
            code: 'text-too-small',
            message: `${pathOf(element)} has text ${atSlideScale} px high at the slide's scale, under ${input.minTextPx} px: hard to read when the slide is shown`,
            element: pathOf(element),
            text: textOf(element),
            box: boxOf(rect),
          })
        }
      }
    }
  }
  return findings
}
