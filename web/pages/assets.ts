/**
 * The pages' static assets, served at `/_emulator/assets/{name}`: the
 * stylesheet, the slide viewer's and the dashboard's scripts, the icon,
 * and the slide renderer's documents and scripts (`render/…`, served by
 * `render/documents.ts`).
 * They are the same for everyone and hold no data, so they are served
 * without the admin token (a strict CSP allows only same-origin scripts, so
 * the editor and the sites need them too). Unknown names are not assets.
 */
import { jsonResponse, textResponse, type EmulatorRequest, type EmulatorResponse } from '../../src/core/exchange.js'
import { fail } from '../../src/core/errors.js'
import { DASHBOARD_JS, VIEWER_JS } from '../generated/pages-scripts.js'
import type { RenderHost } from '../render/documents.js'
import { isRenderAssetPath } from '../render/limits.js'
import { ASSET_PREFIX, type AssetName } from './paths.js'
import { PAGES_CSS } from './styles.js'

const FAVICON = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 32 32"><rect width="32" height="32" rx="7" fill="#1d4ed8"/><rect x="6" y="8" width="20" height="13" rx="2" fill="#fff"/><rect x="9" y="11" width="9" height="2" rx="1" fill="#1d4ed8"/><rect x="9" y="15" width="13" height="1.6" rx=".8" fill="#93c5fd"/><path d="M16 21v4m-4 0h8" stroke="#fff" stroke-width="2" stroke-linecap="round"/></svg>`

const ASSETS = {
  'pages.css': { type: 'text/css; charset=utf-8', body: PAGES_CSS },
  'viewer.js': { type: 'text/javascript; charset=utf-8', body: VIEWER_JS },
  'dashboard.js': { type: 'text/javascript; charset=utf-8', body: DASHBOARD_JS },
  'favicon.svg': { type: 'image/svg+xml', body: FAVICON },
} as const satisfies Record<AssetName, { type: string; body: string }>

function isAssetName(name: string): name is AssetName {
  return Object.hasOwn(ASSETS, name)
}

/** FNV-1a over the text: a cheap, stable validator for `ETag` (not a security hash). */
function etagOf(text: string): string {
  let hash = 0x811c9dc5
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i)
    hash = Math.imul(hash, 0x01000193)
  }
  return `"${(hash >>> 0).toString(16)}-${text.length.toString(16)}"`
}

const ETAGS = new Map<AssetName, string>(Object.entries(ASSETS).map(([name, asset]) => [name as AssetName, etagOf(asset.body)]))

/** Answers a request for an asset: GET or HEAD, revalidated by `ETag`; the slide renderer's assets (`render/…`) are its own module's. */
export async function serveAsset(request: EmulatorRequest, host: RenderHost): Promise<EmulatorResponse> {
  if (isRenderAssetPath(request.path)) return (await import('../render/documents.js')).serveRenderAsset(request, host)
  const name = request.path.slice(ASSET_PREFIX.length)
  if (!isAssetName(name)) return fail.notFound('Asset', `no asset "${name}"`).toResponse()
  if (request.method !== 'GET' && request.method !== 'HEAD') return fail.methodNotAllowed(['GET', 'HEAD']).toResponse()
  const asset = ASSETS[name]
  const etag = ETAGS.get(name)!
  const headers = { etag, 'cache-control': 'no-cache', 'x-content-type-options': 'nosniff' }
  if (request.headers['if-none-match'] === etag) return { ...jsonResponse(304, null), headers, body: null }
  return textResponse(200, asset.body, asset.type, headers)
}
