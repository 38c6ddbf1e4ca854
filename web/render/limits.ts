/**
 * The renderer's fixed numbers and names, shared by the emulator (which
 * serves the renderer and checks its inputs) and the renderer's browser
 * scripts (which enforce them). The slide's box, its imports and its time
 * are the core's (`src/model/slide-box.ts`); the renderer enforces them.
 * Nothing here runs slide code.
 */

export { RENDER_TIMEOUT_MS, SLIDE_HEIGHT, SLIDE_IMPORTS, SLIDE_WIDTH } from '../../src/model/slide-box.js'

/**
 * How long a worker may take to load React and reach the slide's code.
 * No slide code runs before then, so this bounds a busy machine, not a
 * component; a worker that never starts is ended and its slide says so.
 */
export const START_TIMEOUT_MS = 20_000

/** Renders running at once in one page: the renderer's workers, each rendering one slide at a time. */
export const MAX_CONCURRENT_RENDERS = 2

/** Renders one worker does before the renderer ends it and starts a fresh one (bounds what slides may leave behind). */
export const MAX_RENDERS_PER_WORKER = 100

/**
 * How long a worker may take, after a render, to show that nothing the
 * slide started is still running (its `idle` comes from a task of its
 * own). Past it, the worker is ended, not reused; no slide fails.
 */
export const IDLE_TIMEOUT_MS = 2_000

/**
 * The largest markup (in UTF-16 code units) a slide may have, at each step
 * it takes: as the worker renders it (a larger one never leaves the
 * worker, and the renderer frame refuses it unread), and as the sanitiser
 * writes it out, as HTML for a display frame and as XHTML for its picture
 * (markup may grow there: a style normalised, `&nbsp;` for each U+00A0).
 * Over it, at any step, the slide shows its own `too-large` error.
 */
export const MAX_MARKUP_CHARS = 1_000_000

/** The longest error message and stack a worker sends for a failed render (a component may throw anything). */
export const MAX_ERROR_MESSAGE_CHARS = 2_000
export const MAX_ERROR_STACK_CHARS = 20_000

/**
 * How many times a page gives a slide to a new renderer frame after the
 * frame stopped answering while that slide was being rendered: once, after
 * every other slide and alone. Lost again, the slide shows its own
 * `crashed` error and the rest of the deck is not held up by it.
 */
export const LOST_RENDERER_RETRIES = 1

/** The `too-large` message: the markup's size, at the step (`rendered`, or as the sanitiser wrote it) it went over `MAX_MARKUP_CHARS`. */
export function markupTooLarge(chars: number, step: 'rendered' | 'sanitised' | 'picture' = 'rendered'): string {
  const size = chars.toLocaleString('en')
  const limit = MAX_MARKUP_CHARS.toLocaleString('en')
  const what =
    step === 'rendered'
      ? `The component's markup is ${size} characters`
      : `The component's markup grows to ${size} characters ${step === 'sanitised' ? 'once sanitised' : 'as the picture of the slide'}`
  return `${what}, over the ${limit} a slide may have, so it is not shown.`
}

/** The largest transpiled component the renderer accepts (the emulator never sends a larger one: `slide.tsx` is at most 1 MiB). */
export const MAX_CODE_CHARS = 4_000_000

/** The largest `slide.content.json` / `slide.controls.json` text the renderer accepts. */
export const MAX_FILE_CHARS = 2_000_000

/**
 * A slide's script as a worker loads it (`importScripts`, so a classic
 * script): the transpiled module between these two, in the slot the worker
 * reads, as a function that runs when called. The emulator parses exactly
 * this text again before it hands the code out (`transpile.ts`), so what
 * it checked is what the browser runs.
 */
export const SLIDE_SCRIPT_PREFIX = '__slideModule = function (exports, require, module, __impMeta__) { return (async () => {\n'
export const SLIDE_SCRIPT_SUFFIX = '\n})() };\n'

/** Where the renderer's documents and scripts are served (assets of the emulator's own origin). */
export const RENDER_ASSET_PATH = '/_emulator/assets/render/'

/**
 * The renderer's documents, by name under `RENDER_ASSET_PATH`. Each holds
 * its script inline (allowed by its hash alone): a sandboxed frame's own
 * requests are not cached by the browser, so a script loaded from an
 * address would be fetched again by every frame and every worker.
 */
export const RENDER_ASSETS = {
  /** The renderer frame: runs components, each in its own worker (React is inside its script). */
  rendererDocument: 'renderer.html',
  /** A display frame: shows one slide's sanitised markup. */
  slideDocument: 'slide.html',
} as const

/** The names served under `RENDER_ASSET_PATH`. */
export const RENDER_ASSET_NAMES: readonly string[] = Object.values(RENDER_ASSETS)

/** True for the path of one of the renderer's assets. */
export function isRenderAssetPath(path: string): boolean {
  return path.startsWith(RENDER_ASSET_PATH) && RENDER_ASSET_NAMES.includes(path.slice(RENDER_ASSET_PATH.length))
}

/**
 * Whether a slide may load an image from this path of the emulator's own
 * origin: anything but its API (`/v1`) and its control plane (`/_emulator`,
 * apart from its assets). Both the component view and the content view
 * hold to it, so no slide makes the browser call the API or read the
 * control plane.
 */
export function imagePathAllowed(path: string): boolean {
  if (path === '/v1' || path.startsWith('/v1/')) return false
  return !(path === '/_emulator' || (path.startsWith('/_emulator/') && !path.startsWith('/_emulator/assets/')))
}

/**
 * The query parameter of a renderer document's address that carries the
 * frame key of the emulator (`frameKeyOf` in `documents.ts`): a page served
 * in an opaque origin (a published site) can satisfy no `frame-ancestors`,
 * so its frames prove with this key that an emulator's page made them.
 */
export const FRAME_KEY_PARAM = 'k'

/** The query parameter of a display frame's address naming a remote image its slide's content allows (`--allow-remote-images`). */
export const IMAGE_PARAM = 'img'

/** At most this many remote images per slide are allowed, each at most this long. */
export const MAX_REMOTE_IMAGES = 24
export const MAX_REMOTE_IMAGE_URL = 2_048
