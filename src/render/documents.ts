/**
 * The renderer's documents and scripts, served by the emulator under
 * `/_emulator/assets/render/` (assets: the same for everyone, holding no
 * data, served without the admin token):
 *
 * | name | what |
 * |---|---|
 * | `renderer.html`, `renderer.js` | the renderer frame: runs components, one worker per render |
 * | `worker.js` | the first script of each worker |
 * | `react.js` | React 19 and `renderToStaticMarkup`, loaded by each worker |
 * | `slide.html`, `slide.js` | a display frame: shows one slide's sanitised markup |
 *
 * Each document is sent with its own Content-Security-Policy, which
 * includes `sandbox allow-scripts`, so it is sandboxed (an opaque origin,
 * no forms, popups, modals or top navigation) however it is opened, and
 * loads scripts only from that path of the emulator's origin: a component
 * cannot `importScripts('/_emulator/state')`. The workers a renderer frame
 * starts from `blob:` scripts inherit its policy.
 *
 * Requests with `?v=` and the current `RENDER_VERSION` may be cached for
 * good (the pages always ask that way); others are revalidated.
 */
import { fail } from '../core/errors.js'
import { jsonResponse, textResponse, type EmulatorRequest, type EmulatorResponse } from '../core/exchange.js'
import { DISPLAY_JS, RENDER_VERSION, RENDERER_JS, WORKER_JS } from './client/bundle.generated.js'
import {
  IMAGE_PARAM,
  MAX_REMOTE_IMAGE_URL,
  MAX_REMOTE_IMAGES,
  RENDER_ASSET_NAMES,
  RENDER_ASSET_PATH,
  RENDER_ASSETS,
  SLIDE_HEIGHT,
  SLIDE_WIDTH,
} from './limits.js'

/** What serving the renderer needs from the emulator. */
export interface RenderHost {
  /** The emulator's public URL: its origin stands in when a request carries no usable `Host`. */
  readonly publicUrl: string
  /** `--allow-remote-images`: a display frame may load the remote images its address names. */
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
  const path = url.pathname.replace(/[;,'"\s]/g, (char) => `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`)
  return `${url.protocol}//${url.host}${path}`
}

const COMMON = [
  "default-src 'none'",
  "connect-src 'none'",
  "frame-src 'none'",
  "form-action 'none'",
  "base-uri 'none'",
  "frame-ancestors 'self'",
]

/** The renderer frame's policy: scripts only from the renderer's path, workers only from `blob:` scripts it makes, nothing else. */
export function rendererPolicy(origin: string): string {
  return [
    'sandbox allow-scripts',
    ...COMMON,
    `script-src ${origin}${RENDER_ASSET_PATH}`,
    'worker-src blob:',
    "style-src 'unsafe-inline'",
  ].join('; ')
}

/** A display frame's policy: its own script, inline styles (the slide's), images from `data:`, the emulator and the given remote URLs. */
export function displayPolicy(origin: string, remoteImages: readonly string[] = []): string {
  const remote = remoteImages.map(imageSource).filter((source): source is string => source !== undefined)
  return [
    'sandbox allow-scripts',
    ...COMMON,
    `script-src ${origin}${RENDER_ASSET_PATH}`,
    "style-src 'unsafe-inline'",
    `img-src data: ${origin}${remote.map((source) => ` ${source}`).join('')}`,
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
<body><script src="${RENDER_ASSETS.rendererScript}?v=${RENDER_VERSION}"></script></body>
</html>
`
}

/** A display frame's document: the slide's box (`SLIDE_WIDTH` × `SLIDE_HEIGHT`, scaled by its script) and an empty stylesheet for the slide's. */
export function displayDocument(): string {
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta http-equiv="x-dns-prefetch-control" content="off"><title>Slide</title>
<style>html,body{margin:0;width:100%;height:100%;overflow:hidden;background:transparent}#slide-root{position:absolute;left:0;top:0;width:${SLIDE_WIDTH}px;height:${SLIDE_HEIGHT}px;transform-origin:0 0;overflow:hidden;container-type:size;background:var(--slide-bg,#fff);color:var(--slide-fg,#0f172a);font-family:var(--slide-font,system-ui,sans-serif)}</style>
<style id="slide-css"></style>
</head>
<body><div id="slide-root"></div><script src="${RENDER_ASSETS.slideScript}?v=${RENDER_VERSION}"></script></body>
</html>
`
}

const JS = 'text/javascript; charset=utf-8'
const HTML = 'text/html; charset=utf-8'

async function body(name: string): Promise<{ type: string; text: string }> {
  switch (name) {
    case RENDER_ASSETS.rendererDocument:
      return { type: HTML, text: rendererDocument() }
    case RENDER_ASSETS.slideDocument:
      return { type: HTML, text: displayDocument() }
    case RENDER_ASSETS.rendererScript:
      return { type: JS, text: RENDERER_JS }
    case RENDER_ASSETS.slideScript:
      return { type: JS, text: DISPLAY_JS }
    case RENDER_ASSETS.workerScript:
      return { type: JS, text: WORKER_JS }
    default:
      // React, the largest by far, loads only when a worker first asks for it.
      return { type: JS, text: (await import('./client/react.generated.js')).REACT_JS }
  }
}

/** Answers a request for one of the renderer's assets (GET or HEAD). */
export async function serveRenderAsset(request: EmulatorRequest, host: RenderHost): Promise<EmulatorResponse> {
  const name = request.path.slice(RENDER_ASSET_PATH.length)
  if (!RENDER_ASSET_NAMES.includes(name)) return fail.notFound('Asset', `no asset "render/${name}"`).toResponse()
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
  const query = new URLSearchParams(request.query)
  const current = query.get('v') === RENDER_VERSION
  const etag = `"render-${RENDER_VERSION}"`
  const headers: Record<string, string> = {
    etag,
    'cache-control': current ? 'public, max-age=31536000, immutable' : 'no-cache',
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  }
  const origin = requestOrigin(request, host.publicUrl)
  if (name === RENDER_ASSETS.rendererDocument) headers['content-security-policy'] = rendererPolicy(origin)
  if (name === RENDER_ASSETS.slideDocument) {
    const images = host.allowRemoteImages ? query.getAll(IMAGE_PARAM).slice(0, MAX_REMOTE_IMAGES) : []
    headers['content-security-policy'] = displayPolicy(origin, images)
  }
  if (name.endsWith('.html')) {
    // The policy depends on the address and the emulator's options: never reuse a document.
    headers['cache-control'] = 'no-store'
    headers['x-dns-prefetch-control'] = 'off'
    delete headers.etag
  } else if (request.headers['if-none-match'] === etag) {
    return { ...jsonResponse(304, null), headers, body: null }
  }
  const { type, text } = await body(name)
  return textResponse(200, request.method === 'HEAD' ? '' : text, type, headers)
}
