/**
 * The slide viewer in the browser (served as `/_emulator/assets/viewer.js`):
 * one slide at a time, thumbnails, an overview, keyboard navigation, a
 * full-screen presenter mode and, on the editor, live updates from the
 * server's event stream. It runs under the pages' strict CSP: no inline
 * script, no style attribute (styles change through CSSOM only). Slides
 * show as their components render them (`component-view.ts`), with the
 * content rendering as the fallback and, in the editor, a toggle.
 */

import type { DeckView } from '../viewer.js'
import { ComponentView, type RenderDeck } from './component-view.js'

const root = document.documentElement
root.classList.add('js')

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the viewer page has no #${id}`)
  return element as T
}

function fromHtml(html: string): HTMLElement {
  const template = document.createElement('template')
  template.innerHTML = html
  return template.content.firstElementChild as HTMLElement
}

/** Moves `node` before `before` in `parent`, keeping an iframe inside it loaded where the browser can (`moveBefore`). */
function place(parent: HTMLElement, node: Node, before: Node | null): void {
  const move = (parent as HTMLElement & { moveBefore?: (node: Node, child: Node | null) => void }).moveBefore
  if (move !== undefined && node.isConnected) {
    try {
      move.call(parent, node, before)
      return
    } catch {
      // Not movable that way (another document): inserted instead.
    }
  }
  parent.insertBefore(node, before)
}

/** Makes `parent`'s children exactly `wanted`, moving only those out of place (an unmoved iframe stays loaded). */
function syncChildren(parent: HTMLElement, wanted: readonly HTMLElement[]): void {
  let cursor: ChildNode | null = parent.firstChild
  for (const node of wanted) {
    if (node === cursor) {
      cursor = cursor.nextSibling
      continue
    }
    place(parent, node, cursor)
  }
  while (cursor !== null) {
    const next: ChildNode | null = cursor.nextSibling
    cursor.remove()
    cursor = next
  }
}

/**
 * Gives `old` the attributes and children of `fresh` (new HTML for the same
 * slide), keeping its component layer (its display frame stays loaded).
 */
function morph(old: HTMLElement, fresh: HTMLElement): void {
  for (const name of old.getAttributeNames()) if (!fresh.hasAttribute(name)) old.removeAttribute(name)
  for (const name of fresh.getAttributeNames()) old.setAttribute(name, fresh.getAttribute(name)!)
  const layer = old.querySelector(':scope > .component-layer')
  for (const child of Array.from(old.childNodes)) if (child !== layer) child.remove()
  for (const child of Array.from(fresh.childNodes)) old.insertBefore(child, layer)
}

/** The renderer's data the page was served with. */
function initialRenderDeck(): RenderDeck | undefined {
  const block = document.getElementById('deck-render')
  if (block === null) return undefined
  try {
    return JSON.parse(block.textContent ?? '') as RenderDeck
  } catch {
    return undefined
  }
}

function start(): void {
  const stageSlides = byId('stage-slides')
  const thumbs = byId('thumbs')
  const counter = byId('counter')
  const slideName = byId('slide-name')
  const prev = byId<HTMLButtonElement>('prev')
  const next = byId<HTMLButtonElement>('next')
  const empty = byId('stage-empty')
  const overviewToggle = byId<HTMLButtonElement>('overview-toggle')
  const present = document.getElementById('present')
  const progress = document.getElementById('progress-bar')
  const stage = byId('stage')

  const frames = () => Array.from(stageSlides.querySelectorAll<HTMLElement>(':scope > .slide-frame'))
  const thumbButtons = () => Array.from(thumbs.querySelectorAll<HTMLElement>(':scope > .thumb'))

  let ids = frames().map((frame) => frame.dataset.slideId ?? '')
  let names = thumbButtons().map((thumb) => thumb.querySelector('.thumb-name')?.textContent ?? '')
  let index = 0

  const components = new ComponentView({
    editor: document.body.dataset.mode === 'editor',
    hosts: (id) => ({
      frame: frames().find((frame) => frame.dataset.slideId === id),
      thumb: thumbButtons().find((thumb) => thumb.dataset.slideId === id),
    }),
    currentId: () => ids[index],
    label: (id) => `Slide ${ids.indexOf(id) + 1}: ${names[ids.indexOf(id)] ?? ''}`,
  })

  function indexFromHash(): number | undefined {
    const match = /^#slide-(\d+)$/.exec(location.hash)
    return match === null ? undefined : Number(match[1]) - 1
  }

  /** Shows slide `to` (clamped) and updates everything that names it. */
  function show(to: number, options: { updateHash?: boolean } = {}): void {
    const count = ids.length
    index = count === 0 ? 0 : Math.max(0, Math.min(to, count - 1))
    frames().forEach((frame, i) => {
      frame.classList.toggle('current', i === index)
    })
    thumbButtons().forEach((thumb, i) => {
      if (i === index) thumb.setAttribute('aria-current', 'true')
      else thumb.removeAttribute('aria-current')
    })
    counter.textContent = count === 0 ? '0 / 0' : `${index + 1} / ${count}`
    slideName.textContent = names[index] ?? ''
    prev.disabled = index <= 0
    next.disabled = index >= count - 1
    if (progress !== null) progress.style.width = count === 0 ? '0' : `${((index + 1) / count) * 100}%`
    if (options.updateHash !== false && count > 0) history.replaceState(null, '', `#slide-${index + 1}`)
    thumbButtons()[index]?.scrollIntoView({ block: 'nearest', inline: 'nearest' })
    markOverflow()
    components.sync()
  }

  const go = (to: number) => show(to)

  /**
   * Marks the current slide when its content is taller than the slide and
   * more of it lies below: the slide scrolls, and a cue says so (overlay
   * scrollbars show nothing until one scrolls).
   */
  function markOverflow(): void {
    frames().forEach((frame, i) => {
      const slide = frame.querySelector<HTMLElement>(':scope > .slide')
      const more = i === index && slide !== null && slide.scrollHeight - slide.clientHeight - slide.scrollTop > 2
      frame.classList.toggle('more-below', more)
    })
  }
  stageSlides.addEventListener('scroll', markOverflow, { capture: true, passive: true })
  window.addEventListener('resize', markOverflow)
  // Web fonts and images change heights after the first layout.
  window.addEventListener('load', markOverflow)

  function setOverview(on: boolean): void {
    root.classList.toggle('overview', on)
    overviewToggle.setAttribute('aria-pressed', String(on))
    if (on) thumbButtons()[index]?.focus()
  }

  // Each presentation has a number; `fullscreenOf` is the one whose full screen is on (0: none), and `leaving`
  // the full screen being left. Leaving full screen (Escape, the browser's own controls) ends that presentation
  // only: a presentation started while the last one's full screen is still being left (F pressed twice at once)
  // waits for that, then asks for its own, and the late report of the exit ends nothing.
  let presentation = 0
  let fullscreenOf = 0
  let leaving: Promise<void> | undefined

  const presenting = () => root.classList.contains('presenting')

  function leaveFullscreen(): void {
    if (document.fullscreenElement !== null) leaving = document.exitFullscreen().catch(() => undefined)
  }

  async function startPresenting(): Promise<void> {
    setOverview(false)
    root.classList.add('presenting')
    const current = ++presentation
    stage.focus({ preventScroll: true })
    await leaving
    if (current !== presentation || !presenting()) return
    try {
      if (document.fullscreenElement === null && root.requestFullscreen !== undefined) await root.requestFullscreen()
    } catch {
      // Full screen refused (no user gesture, a kiosk): presenting fills the window instead.
    }
  }

  function stopPresenting(): void {
    root.classList.remove('presenting')
    fullscreenOf = 0
    leaveFullscreen()
  }

  document.addEventListener('fullscreenchange', () => {
    if (document.fullscreenElement !== null) {
      // Full screen came on: the current presentation's, or one stopped while its request was pending.
      if (presenting()) fullscreenOf = presentation
      else leaveFullscreen()
      return
    }
    if (fullscreenOf === 0) return
    fullscreenOf = 0
    if (presenting()) stopPresenting()
  })

  prev.addEventListener('click', () => go(index - 1))
  next.addEventListener('click', () => go(index + 1))
  overviewToggle.addEventListener('click', () => setOverview(!root.classList.contains('overview')))
  present?.addEventListener('click', () => void startPresenting())
  thumbs.addEventListener('click', (event) => {
    const thumb = (event.target as Element).closest<HTMLElement>('.thumb')
    if (thumb === null) return
    const at = ids.indexOf(thumb.dataset.slideId ?? '')
    if (at !== -1) go(at)
    if (root.classList.contains('overview')) setOverview(false)
  })
  stage.addEventListener('click', (event) => {
    if (!root.classList.contains('presenting')) return
    // Presenting: the left third goes back, the rest forward.
    go(event.clientX < window.innerWidth / 3 ? index - 1 : index + 1)
  })

  document.addEventListener('keydown', (event) => {
    if (event.defaultPrevented || event.altKey || event.ctrlKey || event.metaKey) return
    const target = event.target as HTMLElement | null
    if (target?.closest('input, textarea, select, [contenteditable="true"]')) return
    const onButton = target !== null && target.closest('button, a') !== null
    let handled = true
    switch (event.key) {
      case 'ArrowRight':
      case 'ArrowDown':
      case 'PageDown':
        go(index + 1)
        break
      case ' ':
        if (onButton) return
        go(event.shiftKey ? index - 1 : index + 1)
        break
      case 'ArrowLeft':
      case 'ArrowUp':
      case 'PageUp':
        go(index - 1)
        break
      case 'Home':
        go(0)
        break
      case 'End':
        go(ids.length - 1)
        break
      case 'o':
      case 'O':
        setOverview(!root.classList.contains('overview'))
        break
      case 'f':
      case 'F':
        if (present === null) return
        if (root.classList.contains('presenting')) stopPresenting()
        else void startPresenting()
        break
      case 'Escape':
        if (root.classList.contains('presenting')) stopPresenting()
        else if (root.classList.contains('overview')) setOverview(false)
        else return
        break
      default:
        handled = false
    }
    if (handled) {
      event.preventDefault()
      if (root.classList.contains('overview') && event.key.startsWith('Arrow')) thumbButtons()[index]?.focus()
    }
  })

  window.addEventListener('hashchange', () => {
    const at = indexFromHash()
    if (at !== undefined && at !== index) show(at, { updateHash: false })
  })

  show(indexFromHash() ?? 0, { updateHash: indexFromHash() !== undefined })
  const initial = initialRenderDeck()
  if (initial !== undefined) components.update(initial)

  // ---------- live updates (the editor) ----------
  const eventsUrl = document.body.dataset.events
  if (eventsUrl === undefined) return
  const live = document.getElementById('live')
  const deckName = byId('deck-name')
  const deckMeta = byId('deck-meta')
  const notice = byId('notice')
  const frameHtml = new Map<string, string>()
  const thumbHtml = new Map<string, string>()
  let last: { meta?: string; notice?: string; empty?: string; css?: string } = {
    css: document.querySelector('head style')?.textContent ?? undefined,
  }
  let sheet: CSSStyleSheet | undefined

  function applyCss(css: string): void {
    if (css === last.css) return
    last.css = css
    // A constructed style sheet is CSSOM, which the CSP allows (an inline <style> added now would not be).
    if (sheet === undefined) {
      sheet = new CSSStyleSheet()
      document.adoptedStyleSheets = [...document.adoptedStyleSheets, sheet]
    }
    sheet.replaceSync(css)
  }

  function apply(view: DeckView): void {
    document.title = view.title
    if (deckName.textContent !== view.name) deckName.textContent = view.name
    if (last.meta !== view.meta) deckMeta.innerHTML = last.meta = view.meta
    if (last.notice !== view.notice) notice.innerHTML = last.notice = view.notice
    if (last.empty !== view.empty) empty.innerHTML = last.empty = view.empty
    applyCss(view.css)

    const currentId = ids[index]
    const focusedId = (document.activeElement as HTMLElement | null)?.closest<HTMLElement>('.thumb')?.dataset.slideId
    const oldFrames = new Map(frames().map((frame) => [frame.dataset.slideId ?? '', frame]))
    const oldThumbs = new Map(thumbButtons().map((thumb) => [thumb.dataset.slideId ?? '', thumb]))
    const newFrames: HTMLElement[] = []
    const newThumbs: HTMLElement[] = []
    for (const slide of view.slides) {
      let frame = oldFrames.get(slide.id)
      if (frame === undefined) frame = fromHtml(slide.frame)
      else if (frameHtml.get(slide.id) !== slide.frame) morph(frame, fromHtml(slide.frame))
      frameHtml.set(slide.id, slide.frame)
      let thumb = oldThumbs.get(slide.id)
      if (thumb === undefined) thumb = fromHtml(slide.thumb)
      else if (thumbHtml.get(slide.id) !== slide.thumb) morph(thumb, fromHtml(slide.thumb))
      thumbHtml.set(slide.id, slide.thumb)
      newFrames.push(frame)
      newThumbs.push(thumb)
    }
    syncChildren(stageSlides, newFrames)
    syncChildren(thumbs, newThumbs)
    const previous = index
    ids = view.slides.map((slide) => slide.id)
    names = view.slides.map((slide) => slide.name)
    for (const id of [...frameHtml.keys()]) if (!ids.includes(id)) frameHtml.delete(id)
    for (const id of [...thumbHtml.keys()]) if (!ids.includes(id)) thumbHtml.delete(id)
    empty.hidden = ids.length > 0
    const kept = currentId === undefined ? -1 : ids.indexOf(currentId)
    components.update({
      frameCss: view.frameCss,
      renderVersion: view.renderVersion,
      ...(view.frameKey === undefined ? {} : { frameKey: view.frameKey }),
      slides: view.slides.map(({ id, render }) => ({ id, render })),
    })
    show(kept !== -1 ? kept : previous, { updateHash: location.hash !== '' })
    if (focusedId !== undefined) thumbButtons()[ids.indexOf(focusedId)]?.focus({ preventScroll: true })
  }

  function setLive(on: boolean, text: string): void {
    if (live === null) return
    live.classList.toggle('on', on)
    live.textContent = text
  }

  const source = new EventSource(eventsUrl)
  source.addEventListener('open', () => setLive(true, 'Live'))
  source.addEventListener('error', () => setLive(false, 'Reconnecting…'))
  source.addEventListener('state', (event) => {
    setLive(true, 'Live')
    apply(JSON.parse((event as MessageEvent<string>).data) as DeckView)
  })
  source.addEventListener('gone', () => {
    last = { ...last, notice: undefined }
    const bar = document.createElement('div')
    bar.className = 'notice-bar notice-info'
    bar.setAttribute('role', 'alert')
    bar.textContent =
      'This project no longer exists in the emulator (a reset or a state import removed it). The page shows it again if it comes back.'
    notice.replaceChildren(bar)
  })
  window.addEventListener('pagehide', () => source.close())
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
