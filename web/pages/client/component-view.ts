/**
 * The slides as their components render them, in the editor and the
 * published sites (part of `viewer.js`). The page never runs slide code and
 * never parses a component's markup:
 *
 * - one hidden renderer frame (`<iframe sandbox="allow-scripts">` on the
 *   renderer's own document) runs each slide once per set of props, at most
 *   `MAX_CONCURRENT_RENDERS` at a time, the current slide first;
 * - the stage shows the current slide in a sandboxed display frame; the
 *   page relays the markup to it as an opaque string, and it sanitises and
 *   shows it;
 * - a thumbnail (hence the overview) shows the slide as a picture: an
 *   `<img>` of an SVG made from the renderer's sanitised XHTML and the
 *   deck's stylesheet (`render/picture.ts`), which runs nothing and loads
 *   nothing; the page joins text into its URL and never parses it;
 * - the page takes messages only from the frames it made (`event.source`),
 *   reads every field as text, and shows errors with `textContent`;
 * - a slide whose component fails shows its content rendering with the
 *   error over it, labelled; the rest of the deck renders on. Every answer
 *   the page asked for settles its slide: markup over `MAX_MARKUP_CHARS` or
 *   an answer it cannot read is that slide's error, never dropped;
 * - a renderer frame that stops answering is replaced (and the display
 *   frames with it: they share its process, which may be stuck). A slide
 *   that was being rendered then is tried once more, after every other
 *   slide and alone; lost again, it shows its own `crashed` error.
 *
 * The editor adds a Component / Content toggle and a controls panel whose
 * changes re-render the slide at once and are saved nowhere (the spec has
 * no operation for control values).
 */
import {
  FRAME_KEY_PARAM,
  IMAGE_PARAM,
  LOST_RENDERER_RETRIES,
  MAX_CONCURRENT_RENDERS,
  MAX_ERROR_MESSAGE_CHARS,
  MAX_MARKUP_CHARS,
  markupTooLarge,
  RENDER_ASSET_PATH,
  RENDER_ASSETS,
  RENDER_TIMEOUT_MS,
  START_TIMEOUT_MS,
} from '../../render/limits.js'
import {
  type FromDisplay,
  type FromRenderer,
  RENDER_PROTOCOL,
  type RenderError,
  type RenderErrorKind,
  type ToDisplay,
  type ToRenderer,
} from '../../render/protocol.js'
import { slidePicture } from '../../render/picture.js'
import type { ControlField, SlideRenderData } from '../../render/slide-render.js'

/** What the page receives for the renderer: in its data block at first, in every live update after. */
export interface RenderDeck {
  frameCss: string
  renderVersion: string
  /** In a page of an opaque origin (a published site): the emulator's frame key, for the frames' addresses. */
  frameKey?: string
  slides: Array<{ id: string; render: SlideRenderData }>
}

type Outcome = { ok: true; html: string; xhtml: string } | { ok: false; error: RenderError }

/** Where a slide shows: the stage article (a display frame) or a thumbnail button (a picture), in a layer inside it. */
interface Display {
  slideId: string
  place: 'stage' | 'thumb'
  /** The stage's display frame, made at once. */
  iframe?: HTMLIFrameElement
  /** A thumbnail's picture, made when there is markup to show. */
  picture?: HTMLImageElement
  layer: HTMLElement
  src: string
  ready: boolean
  seq: number
  /** The outcome last sent to the frame or drawn as the picture (not again). */
  posted?: Outcome
  /** The stylesheet the picture was drawn with (a live update may change the theme). */
  postedCss?: string
}

interface SlideState {
  id: string
  data: SlideRenderData
  /** Props changed in the controls panel (this page only). */
  overrides: Record<string, unknown>
  /** The key of what is wanted: the files and the props. */
  wanted: string
  outcome?: Outcome
  outcomeKey?: string
}

/** The page's choice between the two views, kept for the next visit. */
const VIEW_STORAGE_KEY = 'presentation-emulator:slide-view'
/** How long the page waits for a render's answer beyond the renderer's own limits before it gives up on the frame. */
const ANSWER_MARGIN_MS = 10_000
/** Renders kept for this page (by files and props), so going back to a control value or a slide shows it at once. */
const MAX_KEPT_RENDERS = 300
const ERROR_KINDS: readonly RenderErrorKind[] = ['runtime', 'import', 'no-default-export', 'timeout', 'too-large', 'crashed', 'source']

const isRecord = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value)
const positive = (value: unknown): number | undefined => (Number.isInteger(value) && (value as number) > 0 ? (value as number) : undefined)

/**
 * A renderer answer, checked field by field; undefined for anything else. A result (it names its render)
 * always reads as one: markup over `MAX_MARKUP_CHARS` as that slide's `too-large` error, a result that
 * cannot be read as its `crashed` one, so the render it answers is settled, never left waiting.
 */
function readAnswer(data: unknown): FromRenderer | undefined {
  if (!isRecord(data) || data.protocol !== RENDER_PROTOCOL) return undefined
  if (data.type === 'ready') return { protocol: RENDER_PROTOCOL, type: 'ready' }
  if (data.type !== 'result' || typeof data.id !== 'string') return undefined
  const failed = (error: RenderError): FromRenderer => ({
    protocol: RENDER_PROTOCOL,
    type: 'result',
    id: data.id as string,
    ok: false,
    error,
  })
  if (data.ok === true) {
    const { html, xhtml } = data
    if (typeof html !== 'string' || typeof xhtml !== 'string')
      return failed({ kind: 'crashed', message: 'The renderer’s answer held no markup.' })
    const chars = Math.max(html.length, xhtml.length)
    if (chars > MAX_MARKUP_CHARS) return failed({ kind: 'too-large', message: markupTooLarge(chars, 'sanitised') })
    return { protocol: RENDER_PROTOCOL, type: 'result', id: data.id, ok: true, html, xhtml }
  }
  const error = data.error
  if (data.ok !== false || !isRecord(error) || typeof error.message !== 'string')
    return failed({ kind: 'crashed', message: 'The renderer’s answer could not be read.' })
  const kind = ERROR_KINDS.includes(error.kind as RenderErrorKind) ? (error.kind as RenderErrorKind) : 'runtime'
  const line = positive(error.line)
  const column = positive(error.column)
  return failed({
    kind,
    message: error.message.slice(0, MAX_ERROR_MESSAGE_CHARS),
    ...(line === undefined ? {} : { line }),
    ...(column === undefined ? {} : { column }),
  })
}

/** `slide.tsx:3:14` for an error that has a position. */
function where(error: RenderError): string {
  if (error.line === undefined) return ''
  return `${error.file ?? 'slide.tsx'}:${error.line}${error.column === undefined ? '' : `:${error.column}`}`
}

function element<K extends keyof HTMLElementTagNameMap>(tag: K, className?: string, text?: string): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag)
  if (className !== undefined) node.className = className
  if (text !== undefined) node.textContent = text
  return node
}

/** The controls view of the editor, or nothing on a site. */
export interface ComponentViewOptions {
  /** The editor: a view toggle and a controls panel. */
  editor: boolean
  /** The stage article and the thumbnail button of a slide, as the page has them now. */
  hosts(slideId: string): { frame?: HTMLElement; thumb?: HTMLElement }
  /** The slide the stage shows. */
  currentId(): string | undefined
  /** The slide's 1-based number and name, for labels. */
  label(slideId: string): string
}

export class ComponentView {
  readonly #options: ComponentViewOptions
  #deck: RenderDeck = { frameCss: '', renderVersion: '', slides: [] }
  readonly #slides = new Map<string, SlideState>()
  readonly #outcomes = new Map<string, Outcome>()
  readonly #displays: Display[] = []
  #renderer: HTMLIFrameElement | undefined
  #rendererReady = false
  /** Ends the wait for a renderer frame that never says it is ready (its document did not load). */
  #readyTimer: ReturnType<typeof setTimeout> | undefined
  /** Renders sent and not answered: request id → slide and key. */
  readonly #inFlight = new Map<string, { slideId: string; key: string; timer: ReturnType<typeof setTimeout> }>()
  /** Renders (by key) that were in flight when a renderer frame stopped answering, and how many times. */
  readonly #lost = new Map<string, number>()
  #requests = 0
  #mode: 'component' | 'content'
  #panelFor: string | undefined
  #panelKey: string | undefined

  constructor(options: ComponentViewOptions) {
    this.#options = options
    let stored: string | null = null
    try {
      stored = options.editor ? localStorage.getItem(VIEW_STORAGE_KEY) : null
    } catch {
      // Storage refused: the default view.
    }
    this.#mode = stored === 'content' ? 'content' : 'component'
    window.addEventListener('message', (event) => this.#onMessage(event))
    if (options.editor) {
      for (const button of document.querySelectorAll<HTMLButtonElement>('[data-view]')) {
        button.addEventListener('click', () => this.setMode(button.dataset.view === 'content' ? 'content' : 'component'))
      }
    }
    this.#applyMode()
  }

  get mode(): 'component' | 'content' {
    return this.#mode
  }

  /** Switches between the components and the content rendering (the editor's toggle). */
  setMode(mode: 'component' | 'content'): void {
    if (mode === this.#mode) return
    this.#mode = mode
    try {
      localStorage.setItem(VIEW_STORAGE_KEY, mode)
    } catch {
      // Not kept, then.
    }
    this.#applyMode()
    this.sync()
  }

  #applyMode(): void {
    document.documentElement.classList.toggle('content-view', this.#mode === 'content')
    document.documentElement.classList.toggle('component-view', this.#mode === 'component')
    for (const button of document.querySelectorAll<HTMLButtonElement>('[data-view]')) {
      button.setAttribute('aria-pressed', String(button.dataset.view === this.#mode))
    }
  }

  /** Takes a deck (the page's data block, or a live update) and renders what changed. */
  update(deck: RenderDeck): void {
    this.#deck = deck
    const ids = new Set(deck.slides.map((slide) => slide.id))
    for (const id of [...this.#slides.keys()]) if (!ids.has(id)) this.#slides.delete(id)
    for (const { id, render } of deck.slides) {
      const state = this.#slides.get(id)
      if (state === undefined) {
        this.#slides.set(id, { id, data: render, overrides: {}, wanted: '' })
        continue
      }
      if (state.data.key === render.key) continue
      // Changed files: panel values for controls that still exist are kept.
      const kept: Record<string, unknown> = {}
      for (const field of render.fields) if (Object.hasOwn(state.overrides, field.id)) kept[field.id] = state.overrides[field.id]
      state.data = render
      state.overrides = kept
    }
    this.sync()
  }

  /** Brings every display and render in line with the page as it is now (after navigation, a live update, a toggle). */
  sync(): void {
    for (let i = this.#displays.length - 1; i >= 0; i--) {
      const display = this.#displays[i]!
      if (!display.layer.isConnected || !this.#slides.has(display.slideId)) {
        display.layer.remove()
        this.#displays.splice(i, 1)
      }
    }
    if (this.#mode === 'component') {
      const current = this.#options.currentId()
      for (const state of this.#slides.values()) {
        const hosts = this.#options.hosts(state.id)
        if (hosts.thumb !== undefined) this.#ensureDisplay(state, hosts.thumb, 'thumb')
        if (hosts.frame !== undefined && state.id === current) this.#ensureDisplay(state, hosts.frame, 'stage')
        state.wanted = `${state.data.key}\u0000${JSON.stringify(this.#props(state))}`
        this.#show(state)
      }
      this.#pump()
    }
    this.#renderPanel()
  }

  #props(state: SlideState): Record<string, unknown> {
    return { ...state.data.props, ...state.overrides }
  }

  /* ----------------------------------------------------------- rendering */

  /** The renderer frame: the one the page was served with (it loads while the page parses), or a new one. */
  #rendererFrame(): HTMLIFrameElement {
    if (this.#renderer?.isConnected) return this.#renderer
    clearTimeout(this.#readyTimer)
    this.#readyTimer = setTimeout(() => this.#noRenderer(), START_TIMEOUT_MS)
    const served = document.getElementById('slide-renderer')
    if (served instanceof HTMLIFrameElement && this.#renderer === undefined) {
      this.#renderer = served
      // It may have said it was ready before this script listened: it says so again when asked.
      served.contentWindow?.postMessage({ protocol: RENDER_PROTOCOL, type: 'hello' } satisfies ToRenderer, '*')
      return served
    }
    served?.remove()
    const frame = document.createElement('iframe')
    frame.className = 'renderer-frame'
    frame.setAttribute('sandbox', 'allow-scripts')
    frame.setAttribute('title', 'Slide renderer')
    frame.setAttribute('aria-hidden', 'true')
    frame.setAttribute('tabindex', '-1')
    frame.setAttribute('referrerpolicy', 'no-referrer')
    frame.inert = true
    frame.src = `${RENDER_ASSET_PATH}${RENDER_ASSETS.rendererDocument}?${this.#query()}`
    this.#rendererReady = false
    document.body.append(frame)
    this.#renderer = frame
    return frame
  }

  /** Sends the most wanted renders to the renderer, at most `MAX_CONCURRENT_RENDERS` unanswered. */
  #pump(): void {
    if (this.#mode !== 'component') return
    const waiting = this.#waiting()
    if (waiting.length === 0) return
    const frame = this.#rendererFrame()
    if (!this.#rendererReady) return
    const flights = [...this.#inFlight.values()]
    // A render lost with a renderer frame before runs alone: if the frame is lost again, it was this slide.
    if (flights.some((flight) => this.#suspect(flight.key))) return
    const busy = new Set(flights.map((flight) => flight.key))
    // Until the current slide shows, its render runs alone: on a busy machine a second worker would slow the one that matters most.
    const current = this.#slides.get(this.#options.currentId() ?? '')
    const currentPending =
      current !== undefined && current.data.code !== null && !this.#outcomes.has(current.wanted) && !this.#suspect(current.wanted)
    const limit = currentPending ? 1 : MAX_CONCURRENT_RENDERS
    for (const state of waiting) {
      if (this.#inFlight.size >= limit) break
      if (busy.has(state.wanted)) continue
      // Suspects come last (`#waiting`), each once nothing else is in flight.
      const suspect = this.#suspect(state.wanted)
      if (suspect && this.#inFlight.size > 0) break
      const id = `r${++this.#requests}`
      const key = state.wanted
      const timer = setTimeout(() => this.#lostRenderer(), START_TIMEOUT_MS + RENDER_TIMEOUT_MS + ANSWER_MARGIN_MS)
      this.#inFlight.set(id, { slideId: state.id, key, timer })
      busy.add(key)
      const request: ToRenderer = {
        protocol: RENDER_PROTOCOL,
        type: 'render',
        id,
        slide: {
          code: state.data.code ?? '',
          mappings: state.data.mappings,
          content: state.data.content,
          controls: state.data.controls,
          images: state.data.images,
        },
        props: this.#props(state),
      }
      frame.contentWindow?.postMessage(request, '*')
      if (suspect) break
    }
  }

  /** Whether a render was in flight when a renderer frame stopped answering: it is tried again after the rest, alone. */
  #suspect(key: string): boolean {
    return (this.#lost.get(key) ?? 0) > 0
  }

  /** Slides whose wanted render is neither known nor asked for: the current slide first, then by distance from it; suspects (`#suspect`) last. */
  #waiting(): SlideState[] {
    const order = this.#deck.slides.map((slide) => slide.id)
    const current = order.indexOf(this.#options.currentId() ?? '')
    const asked = new Set([...this.#inFlight.values()].map((flight) => flight.key))
    return [...this.#slides.values()]
      .filter((state) => state.data.code !== null && !this.#outcomes.has(state.wanted) && !asked.has(state.wanted))
      .sort(
        (a, b) =>
          Number(this.#suspect(a.wanted)) - Number(this.#suspect(b.wanted)) ||
          Math.abs(order.indexOf(a.id) - current) - Math.abs(order.indexOf(b.id) - current) ||
          order.indexOf(a.id) - order.indexOf(b.id),
      )
  }

  /**
   * The renderer frame stopped answering (its process died or is stuck, say, on what a slide made it do): a
   * new frame takes over. Each render that was in flight is tried once more (`LOST_RENDERER_RETRIES`), after
   * every other slide and alone (`#pump`); one lost again shows its own `crashed` error.
   */
  #lostRenderer(): void {
    for (const [id, flight] of this.#inFlight) {
      clearTimeout(flight.timer)
      this.#inFlight.delete(id)
      const lost = (this.#lost.get(flight.key) ?? 0) + 1
      this.#lost.delete(flight.key)
      this.#lost.set(flight.key, lost)
      if (this.#lost.size > MAX_KEPT_RENDERS) this.#lost.delete(this.#lost.keys().next().value!)
      if (lost > LOST_RENDERER_RETRIES) {
        this.#settle(flight.key, {
          ok: false,
          error: {
            kind: 'crashed',
            message: `The slide renderer stopped answering while it rendered this slide, ${lost === 2 ? 'twice' : `${lost} times`}, the last time with no other slide, so it is not rendered.`,
          },
        })
      }
    }
    this.#renderer?.remove()
    this.#renderer = undefined
    this.#rendererReady = false
    // The display frames share the renderer frame's process (the browser gives the sandboxed frames of one
    // site one process), which may be stuck: while one of them holds it, a new renderer frame would be put in
    // it too. All go, so that the new frames get a process of their own.
    for (const display of this.#displays) {
      if (display.iframe === undefined) continue
      display.iframe.remove()
      display.iframe = undefined
      display.ready = false
      display.posted = undefined
      if (display.layer.dataset.state === 'rendered') display.layer.dataset.state = 'pending'
    }
    this.sync()
    for (const display of this.#displays) if (display.place === 'stage') this.#frameFor(display)
  }

  /** The renderer frame never became ready: every slide waiting for it shows its content rendering, saying why. */
  #noRenderer(): void {
    if (this.#rendererReady) return
    for (const state of this.#waiting()) {
      this.#settle(state.wanted, {
        ok: false,
        error: {
          kind: 'crashed',
          message: `The slide renderer did not load within ${START_TIMEOUT_MS / 1000} s, so this slide was not rendered.`,
        },
      })
    }
  }

  #settle(key: string, outcome: Outcome): void {
    this.#outcomes.set(key, outcome)
    if (this.#outcomes.size > MAX_KEPT_RENDERS) this.#outcomes.delete(this.#outcomes.keys().next().value!)
    for (const state of this.#slides.values()) if (state.wanted === key) this.#show(state)
  }

  #onMessage(event: MessageEvent): void {
    if (this.#renderer !== undefined && event.source === this.#renderer.contentWindow && event.source !== null) {
      const answer = readAnswer(event.data)
      if (answer === undefined) return
      if (answer.type === 'ready') {
        this.#rendererReady = true
        clearTimeout(this.#readyTimer)
        // Slides given up on while it was not there are rendered now (not those that lost it twice).
        for (const [key, outcome] of this.#outcomes) {
          if (!outcome.ok && outcome.error.kind === 'crashed' && (this.#lost.get(key) ?? 0) <= LOST_RENDERER_RETRIES)
            this.#outcomes.delete(key)
        }
        this.sync()
        this.#pump()
        return
      }
      const flight = this.#inFlight.get(answer.id)
      if (flight === undefined) return
      clearTimeout(flight.timer)
      this.#inFlight.delete(answer.id)
      this.#settle(flight.key, answer.ok ? { ok: true, html: answer.html, xhtml: answer.xhtml } : { ok: false, error: answer.error })
      this.#pump()
      this.#renderPanel()
      return
    }
    const display = this.#displays.find((d) => d.iframe !== undefined && d.iframe.contentWindow === event.source && event.source !== null)
    if (display === undefined || !isRecord(event.data) || event.data.protocol !== RENDER_PROTOCOL) return
    const message = event.data as Partial<FromDisplay>
    if (message.type === 'ready') {
      display.ready = true
      display.posted = undefined
      const state = this.#slides.get(display.slideId)
      if (state !== undefined) this.#show(state)
    } else if (message.type === 'shown' && message.seq === display.seq) {
      display.layer.dataset.state = 'rendered'
    }
  }

  /* ------------------------------------------------------------ displays */

  #ensureDisplay(state: SlideState, host: HTMLElement, place: 'stage' | 'thumb'): void {
    const src = this.#displaySrc(state.data)
    let layer = host.querySelector<HTMLElement>(':scope > .component-layer')
    const existing = this.#displays.find((display) => display.layer === layer)
    if (existing !== undefined && existing.src === src) return
    if (existing !== undefined) this.#displays.splice(this.#displays.indexOf(existing), 1)
    layer?.remove()
    layer = element('div', `component-layer component-layer-${place}`)
    layer.dataset.state = 'pending'
    const error = element('div', 'component-error')
    if (place === 'stage') error.setAttribute('role', 'status')
    layer.append(error)
    host.append(layer)
    const display: Display = { slideId: state.id, place, layer, src, ready: false, seq: 0 }
    this.#displays.push(display)
    if (place === 'stage') this.#frameFor(display)
  }

  /** The display's frame, made now if it has none. */
  #frameFor(display: Display): HTMLIFrameElement {
    if (display.iframe !== undefined) return display.iframe
    const iframe = document.createElement('iframe')
    iframe.className = 'slide-display'
    iframe.setAttribute('sandbox', 'allow-scripts')
    iframe.setAttribute('tabindex', '-1')
    iframe.setAttribute('referrerpolicy', 'no-referrer')
    iframe.setAttribute('scrolling', 'no')
    iframe.inert = true
    if (display.place === 'thumb') iframe.setAttribute('aria-hidden', 'true')
    else iframe.setAttribute('title', `${this.#options.label(display.slideId)}, as its component renders it`)
    iframe.src = display.src
    display.layer.prepend(iframe)
    display.iframe = iframe
    return iframe
  }

  /** Draws a thumbnail's picture of a rendered slide; its layer says `rendered` once the image has loaded. */
  #draw(display: Display, outcome: Outcome & { ok: true }): void {
    const css = this.#deck.frameCss
    if (display.posted === outcome && display.postedCss === css) return
    display.posted = outcome
    display.postedCss = css
    const seq = ++display.seq
    let picture = display.picture
    if (picture === undefined) {
      picture = element('img', 'slide-picture')
      picture.alt = ''
      picture.setAttribute('aria-hidden', 'true')
      picture.decoding = 'async'
      picture.draggable = false
      picture.addEventListener('load', () => {
        if (display.seq === Number(picture!.dataset.seq)) display.layer.dataset.state = 'rendered'
      })
      picture.addEventListener('error', () => {
        if (display.seq !== Number(picture!.dataset.seq)) return
        display.layer.dataset.state = 'failed'
        display.posted = undefined
        this.#describe(display.layer.querySelector<HTMLElement>(':scope > .component-error')!, {
          kind: 'crashed',
          message: 'The slide’s picture could not be drawn from its markup.',
        })
      })
      display.layer.prepend(picture)
      display.picture = picture
    }
    picture.dataset.seq = String(seq)
    picture.src = slidePicture(css, outcome.xhtml)
  }

  /** A renderer document's query: its version and, in a page of an opaque origin, the frame key. */
  #query(): URLSearchParams {
    const query = new URLSearchParams({ v: this.#deck.renderVersion })
    if (this.#deck.frameKey !== undefined) query.set(FRAME_KEY_PARAM, this.#deck.frameKey)
    return query
  }

  /** A display frame's address: versioned, with the images its slide may load (its policy names exactly those). */
  #displaySrc(data: SlideRenderData): string {
    const query = this.#query()
    for (const url of data.images) query.append(IMAGE_PARAM, url)
    return `${RENDER_ASSET_PATH}${RENDER_ASSETS.slideDocument}?${query}`
  }

  /** Shows what is known of a slide's wanted render in each of its displays. */
  #show(state: SlideState): void {
    let outcome: Outcome | undefined
    if (state.data.code === null) {
      const problem = state.data.problem
      outcome = {
        ok: false,
        error: {
          kind: 'source',
          message: problem?.message ?? 'The component cannot run.',
          ...(problem === null ? {} : { line: problem.line, column: problem.column, file: problem.file }),
        },
      }
    } else {
      outcome = this.#outcomes.get(state.wanted)
    }
    for (const display of this.#displays) {
      if (display.slideId !== state.id) continue
      const error = display.layer.querySelector<HTMLElement>(':scope > .component-error')!
      if (outcome === undefined) {
        if (display.layer.dataset.state === 'failed') display.layer.dataset.state = 'pending'
        continue
      }
      if (!outcome.ok) {
        display.layer.dataset.state = 'failed'
        display.posted = undefined
        this.#describe(error, outcome.error)
        continue
      }
      error.replaceChildren()
      if (display.place === 'thumb') {
        this.#draw(display, outcome)
        continue
      }
      this.#frameFor(display)
      if (!display.ready || display.posted === outcome) continue
      display.posted = outcome
      display.seq++
      const message: ToDisplay = { protocol: RENDER_PROTOCOL, type: 'show', seq: display.seq, css: this.#deck.frameCss, html: outcome.html }
      display.iframe?.contentWindow?.postMessage(message, '*')
    }
    state.outcome = outcome
    state.outcomeKey = state.wanted
  }

  /** The error over a slide's content rendering: what failed, where, and that the content is shown instead (text only). */
  #describe(host: HTMLElement, error: RenderError): void {
    const heading = element('strong', undefined, error.kind === 'timeout' ? 'Component stopped' : 'Component error')
    const message = element('span', 'component-error-message', error.message)
    const position = where(error)
    const parts: Node[] = [heading, document.createTextNode(' '), message]
    if (position !== '') parts.push(document.createTextNode(' '), element('code', 'component-error-where', position))
    parts.push(element('span', 'component-error-note', 'Showing the content rendering of this slide instead.'))
    host.replaceChildren(...parts)
    host.title = `${error.message}${position === '' ? '' : ` (${position})`}`
  }

  /* --------------------------------------------------------------- panel */

  #renderPanel(): void {
    const panel = document.getElementById('controls-panel')
    if (panel === null || !this.#options.editor) return
    const id = this.#options.currentId()
    const state = id === undefined ? undefined : this.#slides.get(id)
    panel.hidden = this.#mode !== 'component' || state === undefined
    if (state === undefined) return
    const key = `${state.id}\u0000${state.data.key}`
    if (this.#panelFor === state.id && this.#panelKey === key) return
    this.#panelFor = state.id
    this.#panelKey = key
    const heading = element('h2', undefined, 'Controls')
    const which = element('p', 'panel-slide', this.#options.label(state.id))
    const note = element(
      'p',
      'hint',
      'Changes here re-render this slide in this page only. Nothing is saved: the API has no operation for control values (slide.controls.json holds the defaults).',
    )
    const children: Node[] = [heading, which, note]
    for (const text of state.data.notes) {
      const warning = element('p', 'panel-note', text)
      warning.setAttribute('role', 'note')
      children.push(warning)
    }
    if (state.data.fields.length === 0) children.push(element('p', 'empty', 'This slide has no controls.'))
    for (const field of state.data.fields) children.push(this.#field(state, field))
    if (state.data.fields.length > 0) {
      const reset = element('button', 'btn btn-small', 'Reset to the defaults')
      reset.type = 'button'
      reset.dataset.testid = 'controls-reset'
      reset.addEventListener('click', () => {
        state.overrides = {}
        this.#panelKey = undefined
        this.sync()
      })
      children.push(reset)
    }
    panel.replaceChildren(...children)
  }

  /** `#rrggbb` for a hex colour or a `var(--name)` whose value in the deck's stylesheet is one; undefined otherwise. */
  #hexOf(value: string, depth = 0): string | undefined {
    const hex = /^#([0-9a-f]{3}|[0-9a-f]{6})$/i.exec(value)?.[1]
    if (hex !== undefined) return `#${hex.length === 3 ? [...hex].map((digit) => digit + digit).join('') : hex}`.toLowerCase()
    const name = /^var\(\s*(--[\w-]+)\s*(?:,[^)]*)?\)$/.exec(value)?.[1]
    if (name === undefined || depth > 4) return undefined
    // The last declaration of the variable wins, as in the stylesheet.
    const declared = [...this.#deck.frameCss.matchAll(/(--[\w-]+)\s*:\s*([^;}]+)/g)].filter((match) => match[1] === name).pop()?.[2]
    return declared === undefined ? undefined : this.#hexOf(declared.trim(), depth + 1)
  }

  /** One control as an input; a change re-renders the slide with the new prop. */
  #field(state: SlideState, field: ControlField): HTMLElement {
    const wrapper = element('label', 'field')
    wrapper.dataset.controlId = field.id
    const value = Object.hasOwn(state.overrides, field.id) ? state.overrides[field.id] : field.default
    const known = ['color', 'select', 'text', 'number', 'toggle', 'boolean', 'checkbox'].includes(field.type)
    const caption = element('span', 'field-label', known ? field.label : `${field.label} (${field.type}, edited as text)`)
    const set = (next: unknown) => {
      state.overrides = { ...state.overrides, [field.id]: next }
      this.sync()
    }
    let input: HTMLElement
    switch (field.type) {
      case 'select': {
        const select = element('select')
        const options = field.options ?? []
        options.forEach((option, index) => {
          const item = element('option', undefined, option.label)
          item.value = String(index)
          if (Object.is(option.value, value) || (typeof value === 'string' && option.value === value)) item.selected = true
          select.append(item)
        })
        if (!options.some((option) => Object.is(option.value, value))) {
          const item = element('option', undefined, String(value ?? ''))
          item.value = ''
          item.selected = true
          item.disabled = true
          select.prepend(item)
        }
        select.addEventListener('change', () => set(options[Number(select.value)]?.value))
        input = select
        break
      }
      case 'number': {
        const number = element('input')
        number.type = 'number'
        number.value = typeof value === 'number' ? String(value) : ''
        if (field.min !== undefined) number.min = String(field.min)
        if (field.max !== undefined) number.max = String(field.max)
        if (field.step !== undefined) number.step = String(field.step)
        number.addEventListener('input', () => set(number.value === '' ? undefined : Number(number.value)))
        input = number
        break
      }
      case 'toggle':
      case 'boolean':
      case 'checkbox': {
        const box = element('input')
        box.type = 'checkbox'
        box.checked = value === true
        box.addEventListener('change', () => set(box.checked))
        input = box
        wrapper.classList.add('field-inline')
        break
      }
      case 'color': {
        const row = element('span', 'color-row')
        const text = element('input')
        text.type = 'text'
        text.value = typeof value === 'string' ? value : ''
        text.spellcheck = false
        const picker = element('input')
        picker.type = 'color'
        picker.tabIndex = -1
        picker.setAttribute('aria-label', `${field.label}: pick a colour`)
        // The picker shows the colour a value stands for: a hex colour, or the theme's value of a `var(--token)`.
        const syncPicker = () => {
          const hex = this.#hexOf(text.value.trim())
          if (hex !== undefined) picker.value = hex
        }
        syncPicker()
        text.addEventListener('input', () => {
          syncPicker()
          set(text.value)
        })
        picker.addEventListener('input', () => {
          text.value = picker.value
          set(picker.value)
        })
        row.append(text, picker)
        input = row
        break
      }
      default: {
        const text = element('input')
        text.type = 'text'
        text.spellcheck = false
        text.value = typeof value === 'string' ? value : value === undefined ? '' : JSON.stringify(value)
        text.addEventListener('input', () => set(text.value))
        input = text
      }
    }
    wrapper.append(caption, input)
    return wrapper
  }
}
