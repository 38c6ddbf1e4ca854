/**
 * The renderer's documents, served by the emulator under
 * `/_emulator/assets/render/` (assets: the same for everyone, holding no
 * data, served without the admin token):
 *
 * | name | what |
 * |---|---|
 * | `renderer.html` | the renderer frame: runs components in two workers it keeps, each slide with its own React, in a world SES locks (React and SES are in its script) |
 * | `slide.html` | a display frame: shows one slide's sanitised markup |
 *
 * Each is sent with its own Content-Security-Policy, which includes
 * `sandbox allow-scripts`, so it is sandboxed (an opaque origin, no forms,
 * popups, modals or top navigation) however it is opened. Its one script
 * is inline and allowed by its SHA-256; the renderer frame's policy also
 * allows `blob:` scripts (its workers load React and each slide from
 * addresses it makes), so no script can be loaded from any origin: a
 * component cannot `importScripts('/_emulator/state')` nor `import()` a
 * module. The workers a renderer frame starts from `blob:` scripts inherit
 * its policy. (Inline rather than a script file: a
 * sandboxed frame's own requests are not cached by the browser, so every
 * frame and every worker fetched its scripts again; measured in
 * `docs/decisions/0202-render-sandbox.md`.)
 *
 * Requests with `?v=` and the current `RENDER_VERSION` may be cached for
 * good for that exact address (the pages always ask that way).
 *
 * Only the emulator's own pages may frame them: `frame-ancestors 'self'`.
 * A published site's page runs in an opaque origin (`sandbox
 * allow-scripts`, so nothing in it speaks for the control plane), which no
 * `frame-ancestors` source matches; its frames' addresses carry the
 * emulator's frame key instead (`?k=`, `frameKeyOf`: random, held by the
 * emulator, written only into the pages it serves, which no other site can
 * read), and a document asked for with it has no `frame-ancestors`.
 */
import { sha256 } from '@noble/hashes/sha2.js'
import { utf8ToBytes } from '@noble/hashes/utils.js'
import { fail } from '../../src/core/errors.js'
import { textResponse, type EmulatorRequest, type EmulatorResponse } from '../../src/core/exchange.js'
import { DISPLAY_JS, RENDER_VERSION, RENDERER_JS } from '../generated/render-scripts.js'
import { SLIDE_BOX_CSS } from './picture.js'
import { readImageUrl } from './image-urls.js'
import {
  FRAME_KEY_PARAM,
  IMAGE_PARAM,
  MAX_REMOTE_IMAGE_URL,
  MAX_REMOTE_IMAGES,
  RENDER_ASSET_NAMES,
  RENDER_ASSET_PATH,
  RENDER_ASSETS,
} from './limits.js'

/** What serving the renderer needs from the emulator. */
export interface RenderHost {
  /** The emulator's public URL: its origin stands in when a request carries no usable `Host`. */
  readonly publicUrl: string
  /** `--allow-remote-images`: a display frame may load the remote images its address names (else only its own origin's). */
  readonly allowRemoteImages: boolean
}

/** A `Host` header value that can go into a policy as is: a host name or address and an optional port. */
const HOST = /^(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i

/**
 * The origin a browser reached the emulator at: from `Host` (the HTTP
 * server admits only allowed names), with the public URL's scheme when it
 * names the same host; the public URL's origin when there is no `Host`
 * (msw, the socket-free fetch) or it is not a plain host.
 */
export function requestOrigin(request: EmulatorRequest, publicUrl: string): string {
  const configured = new URL(publicUrl)
  const host = request.headers.host?.trim()
  if (host === undefined || !HOST.test(host)) return configured.origin
  return `${configured.host.toLowerCase() === host.toLowerCase() ? configured.protocol : 'http:'}//${host.toLowerCase()}`
}

/** A path as a CSP source may hold it: `;`, `,`, quotes and white space (which end or split a source) escaped. */
const cspPath = (path: string) => path.replace(/[;,'"\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)

/** The CSP source of a remote image URL: scheme, host, port and exact path (CSP ignores the query, so the sanitiser checks it), or undefined. */
export function imageSource(raw: string): string | undefined {
  if (raw.length > MAX_REMOTE_IMAGE_URL) return undefined
  let url: URL
  try {
    url = new URL(raw)
  } catch {
    return undefined
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || url.username !== '' || url.password !== '') return undefined
  return `${url.protocol}//${url.host}${cspPath(url.pathname)}`
}

/**
 * The CSP sources of the images a display frame may load, of the list its
 * address names (`slideImages`), each judged again here (`readImageUrl`):
 * a path of the emulator's own origin outside its API and control plane
 * as that exact path, a remote URL's exact path only with
 * `allowRemote`. No source names a folder or a whole origin, so no other
 * path of the emulator (`/v1`, `/_emulator`) is ever allowed.
 */
export function imageSources(origin: string, images: readonly string[], allowRemote: boolean): string[] {
  const sources = new Set<string>()
  for (const image of images.slice(0, MAX_REMOTE_IMAGES)) {
    if (image.length > MAX_REMOTE_IMAGE_URL) continue
    const read = readImageUrl(image, origin)
    if (read.kind === 'own') sources.add(`${origin}${cspPath(new URL(read.path, origin).pathname)}`)
    if (read.kind === 'remote' && allowRemote) {
      const source = imageSource(read.url)
      if (source !== undefined) sources.add(source)
    }
  }
  return [...sources]
}

const COMMON = [
  "default-src 'none'",
  "connect-src 'none'",
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
]

/** The base64 SHA-256 of a text, as a CSP hash source wants it (pure JavaScript: the same in Node and under msw in a browser). */
function hashSource(text: string): string {
  let binary = ''
  for (const byte of sha256(utf8ToBytes(text))) binary += String.fromCharCode(byte)
  return `'sha256-${btoa(binary)}'`
}

let hashes: { renderer: string; display: string } | undefined
/** The CSP hash sources of the two documents' scripts (computed once). */
function scriptHashes(): { renderer: string; display: string } {
  hashes ??= { renderer: hashSource(RENDERER_JS), display: hashSource(DISPLAY_JS) }
  return hashes
}

/**
 * The renderer frame's policy: its own inline script, and `blob:` scripts (its workers load React and
 * each slide from `blob:` addresses the frame makes; an address on any origin, the emulator's included,
 * stays refused), workers only from `blob:`, no connection, no image.
 */
export function rendererPolicy(): string {
  return [
    'sandbox allow-scripts',
    ...COMMON,
    `script-src ${scriptHashes().renderer} blob:`,
    'worker-src blob:',
    "style-src 'unsafe-inline'",
  ].join('; ')
}

/**
 * A display frame's policy: its own inline script, inline styles (the slide's), images from `data:` and
 * the exact paths of the images its slide's content names (`imageSources`; remote ones with `allowRemote`).
 */
export function displayPolicy(origin: string, images: readonly string[] = [], allowRemote = false): string {
  return [
    'sandbox allow-scripts',
    ...COMMON,
    `script-src ${scriptHashes().display}`,
    "style-src 'unsafe-inline'",
    `img-src ${['data:', ...imageSources(origin, images, allowRemote)].join(' ')}`,
    'font-src data:',
    "worker-src 'none'",
    "media-src 'none'",
  ].join('; ')
}

/** The renderer frame's document. */
export function rendererDocument(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="x-dns-prefetch-control" content="off"><title>Slide renderer</title></head>
<body><script>${RENDERER_JS}</script></body>
</html>
`
}

/** A display frame's document: the slide's box (`SLIDE_WIDTH` × `SLIDE_HEIGHT`, scaled by its script) and an empty stylesheet for the slide's. */
export function displayDocument(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="x-dns-prefetch-control" content="off"><title>Slide</title>
<style>html,body{margin:0;width:100%;height:100%;overflow:hidden;background:transparent}${SLIDE_BOX_CSS}</style>
<style id="slide-css"></style>
</head>
<body><div id="slide-root"></div><script>${DISPLAY_JS}</script></body>
</html>
`
}

const frameKeys = new WeakMap<object, string>()

/**
 * The frame key of the emulator behind `host` (random, made on first use,
 * never shared between emulators): a published site's page puts it in its
 * renderer frames' addresses (`FRAME_KEY_PARAM`), for which the documents
 * drop `frame-ancestors` (an opaque origin can satisfy none). Other sites
 * cannot read a site's page (no CORS, no framing), so they cannot learn it.
 */
export function frameKeyOf(host: object): string {
  let key = frameKeys.get(host)
  if (key === undefined) {
    const bytes = crypto.getRandomValues(new Uint8Array(16))
    key = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('')
    frameKeys.set(host, key)
  }
  return key
}

/** A policy without its `frame-ancestors` directive (a document framed by a page in an opaque origin). */
function anyAncestor(policy: string): string {
  return policy
    .split('; ')
    .filter((directive) => !directive.startsWith('frame-ancestors '))
    .join('; ')
}

/** Answers a request for one of the renderer's documents (GET or HEAD). */
export async function serveRenderAsset(request: EmulatorRequest, host: RenderHost): Promise<EmulatorResponse> {
  const name = request.path.slice(RENDER_ASSET_PATH.length)
  if (!RENDER_ASSET_NAMES.includes(name)) return fail.notFound('Asset', `no asset "render/${name}"`).toResponse()
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
  const query = new URLSearchParams(request.query)
  const current = query.get('v') === RENDER_VERSION
  const origin = requestOrigin(request, host.publicUrl)
  const images = query.getAll(IMAGE_PARAM).slice(0, MAX_REMOTE_IMAGES)
  const renderer = name === RENDER_ASSETS.rendererDocument
  const policy = renderer ? rendererPolicy() : displayPolicy(origin, images, host.allowRemoteImages)
  const keyed = query.get(FRAME_KEY_PARAM) === frameKeyOf(host)
  return textResponse(200, renderer ? rendererDocument() : displayDocument(), 'text/html; charset=utf-8', {
    'content-security-policy': keyed ? anyAncestor(policy) : policy,
    // The policy depends on the address (its host, the images it names): a browser keeps a versioned
    // document for that address alone, and never an unversioned one (a page opened by hand).
    'cache-control': current ? 'private, max-age=31536000, immutable' : 'no-store',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    'x-dns-prefetch-control': 'off',
  })
}
