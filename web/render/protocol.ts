/**
 * The renderer's messages. A page talks to one renderer frame (which runs
 * components) and to display frames (which show their markup; the
 * thumbnails show pictures made from it instead, `picture.ts`); the
 * renderer frame talks to its workers, each over a `MessagePort` of its own.
 * Every message names this protocol; every field is read as untrusted
 * text by whoever receives it.
 *
 * The protocol is small on purpose: anything that can load the renderer
 * frame and exchange these messages (the editor, the sites, later a
 * headless render check) renders slides the same way.
 */
import type { SlideFileProblem } from '../../src/model/slide-validation.js'

export const RENDER_PROTOCOL = 'presentation-emulator/render@1'

/** What the renderer needs of one slide: its transpiled component, its two JSON files as text, and the images its content names (`slideImages`: paths of the emulator's origin, remote URLs with `--allow-remote-images`), the only ones besides `data:` it may load. */
export interface RenderSlide {
  code: string
  mappings: string
  content: string
  controls: string
  images: string[]
}

/** Page → renderer frame. */
export type ToRenderer =
  | { protocol: typeof RENDER_PROTOCOL; type: 'render'; id: string; slide: RenderSlide; props: Record<string, unknown> }
  | { protocol: typeof RENDER_PROTOCOL; type: 'cancel'; id: string }
  /** Asks the renderer to say `ready` again (it may have said so before the page listened). */
  | { protocol: typeof RENDER_PROTOCOL; type: 'hello' }

/** Why a render failed. */
export type RenderErrorKind =
  /** the component threw (or React refused what it returned) */
  | 'runtime'
  /** it imported a module the renderer does not provide */
  | 'import'
  /** it has no default export */
  | 'no-default-export'
  /** it ran out of time and its worker was ended */
  | 'timeout'
  /** its markup is over the size the renderer accepts */
  | 'too-large'
  /** its worker could not start or load (or died) */
  | 'crashed'
  /** the emulator found a problem before running it (syntax, an unreadable content file) */
  | 'source'

export interface RenderError {
  kind: RenderErrorKind
  message: string
  /** Where in `slide.tsx` (1-based), when known. */
  line?: number
  column?: number
  file?: SlideFileProblem['file']
}

/** Renderer frame → page. */
export type FromRenderer =
  | { protocol: typeof RENDER_PROTOCOL; type: 'ready' }
  /** `html` for a display frame; `xhtml`, the same sanitised markup as XML, for the slide's picture (`picture.ts`). */
  | { protocol: typeof RENDER_PROTOCOL; type: 'result'; id: string; ok: true; html: string; xhtml: string }
  | { protocol: typeof RENDER_PROTOCOL; type: 'result'; id: string; ok: false; error: RenderError }

/** Page → display frame: show this (sanitised again there) with this stylesheet. */
export interface ToDisplay {
  protocol: typeof RENDER_PROTOCOL
  type: 'show'
  seq: number
  css: string
  html: string
}

/** Display frame → page. */
export type FromDisplay =
  | { protocol: typeof RENDER_PROTOCOL; type: 'ready' }
  | { protocol: typeof RENDER_PROTOCOL; type: 'shown'; seq: number }

/** Renderer frame → worker: its one global message (with the port to talk on): the address of its React script. */
export interface WorkerStart {
  runtime: string
}

/** Renderer frame → worker, on the port: render one slide (its script's address, its files and props). */
export interface ToWorker {
  script: string
  init: WorkerInit
}

/** What a render needs besides the slide's script. */
export interface WorkerInit {
  content: string
  controls: string
  props: Record<string, unknown>
}

/** Worker → renderer frame, on the port. */
export type FromWorker =
  /** started: React loaded, ready for a render */
  | { type: 'ready' }
  /** the slide's code starts now (its clock starts) */
  | { type: 'started' }
  /** `html` at most `MAX_MARKUP_CHARS` long */
  | { type: 'done'; html: string }
  /** `message` at most `MAX_ERROR_MESSAGE_CHARS`, `stack` at most `MAX_ERROR_STACK_CHARS`; `too-large` when its markup is over `MAX_MARKUP_CHARS` (it is not sent). */
  | { type: 'failed'; kind: 'runtime' | 'import' | 'no-default-export' | 'too-large' | 'crashed'; message: string; stack: string }
  /** the render's work is over: nothing the slide started is still running */
  | { type: 'idle' }
