/**
 * The headers every page is served with: a strict Content-Security-Policy
 * (scripts only from the emulator's own origin, no inline script; the one
 * inline style allowed by its hash), `X-Content-Type-Options: nosniff` and
 * no referrer. The pages work under it: their scripts and stylesheet are
 * same-origin assets (`/_emulator/assets/…`), they talk only to their own
 * origin (`fetch`, `EventSource`), and they set no style attribute. The
 * editor and the sites may also frame the slide renderer (`frame-src`,
 * only its path); nothing else of their policy changes for it. No page may
 * be framed (`frame-ancestors 'none'`, `X-Frame-Options: DENY`), and a
 * published site's pages run sandboxed, in an opaque origin, and in a
 * process of their own (`isolated`;
 * `docs/decisions/0203-sites-in-an-opaque-origin.md`).
 */
import { RENDER_ASSET_PATH } from '../render/limits.js'

/** The base64 SHA-256 of a text, as a CSP hash source wants it (Web Crypto: Node and browsers alike). */
export async function sha256Base64(text: string): Promise<string> {
  const digest = new Uint8Array(await crypto.subtle.digest('SHA-256', new TextEncoder().encode(text)))
  let binary = ''
  for (const byte of digest) binary += String.fromCharCode(byte)
  return btoa(binary)
}

export interface PagePolicy {
  /** Texts of inline `<style>` elements the page has; each is allowed by its hash. */
  inlineStyles?: string[]
  /** Images from any http(s) origin (`allowRemoteImages`); otherwise only the emulator's own and `data:`. */
  allowRemoteImages?: boolean
  /**
   * Runs the page in an opaque origin of its own (`sandbox allow-scripts`):
   * a published site's page. Its script works (the viewer, the renderer's
   * frames, full screen, the keyboard), but nothing it runs speaks for the
   * emulator's origin: its requests carry `Origin: null`, which the control
   * plane refuses to any write, and it cannot read a same-origin answer
   * (no CORS is granted to `null`), nor any frame it makes (they inherit
   * its sandbox).
   */
  isolated?: boolean
  /**
   * The emulator's origin as the browser reached it, for a page that shows
   * slides as their components: it may frame the slide renderer's documents
   * (`frame-src` that path of the origin, nothing else). Never the dashboard.
   */
  renderOrigin?: string
}

/** The Content-Security-Policy of a page. */
export async function contentSecurityPolicy(policy: PagePolicy): Promise<string> {
  const styles = policy.inlineStyles ?? []
  // Web Crypto exists in Node and on secure origins; a page served by msw's worker on a plain-http
  // host has none, and then its inline style is allowed as such (scripts stay same-origin only).
  const hashes =
    styles.length > 0 && globalThis.crypto?.subtle === undefined
      ? ["'unsafe-inline'"]
      : await Promise.all(styles.map(async (style) => `'sha256-${await sha256Base64(style)}'`))
  return [
    ...(policy.isolated ? ['sandbox allow-scripts'] : []),
    "default-src 'none'",
    "script-src 'self'",
    `style-src 'self'${hashes.map((hash) => ` ${hash}`).join('')}`,
    `img-src 'self' data:${policy.allowRemoteImages ? ' https: http:' : ''}`,
    "font-src 'self' data:",
    "connect-src 'self'",
    ...(policy.renderOrigin === undefined ? [] : [`frame-src ${policy.renderOrigin}${RENDER_ASSET_PATH}`]),
    "base-uri 'none'",
    "form-action 'none'",
    // No page of the emulator is framed, by its own pages or any other site's (clickjacking).
    "frame-ancestors 'none'",
  ].join('; ')
}

/**
 * A published site's page in a process of its own (`Document-Isolation-Policy`,
 * Chromium): a document in an opaque origin shares its process with the
 * sandboxed frames of its site, the slide renderer's among them, so a
 * renderer frame held in a loop held the page with it (they share one main
 * thread). Isolated, the page keeps answering, finds the frame lost and
 * replaces it, as the editor (not sandboxed, so its sandboxed frames are
 * apart from it already) does. `credentialless`: what the page loads from
 * the emulator (its script, stylesheet and images, cross-origin to an
 * opaque origin) needs no header of its own; the emulator uses no cookies.
 * The frames are not isolated this way: only the page is (its frames get
 * no `crossOriginIsolated`, so no `SharedArrayBuffer` for a slide's code).
 * Decision 0203, "The renderer frame's process".
 */
export const DOCUMENT_ISOLATION = 'isolate-and-credentialless'

/** The headers of an HTML page: type, no caching, CSP, nosniff, no referrer; a site's page isolated in a process of its own. */
export async function pageHeaders(policy: PagePolicy): Promise<Record<string, string>> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': await contentSecurityPolicy(policy),
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
    // `frame-ancestors 'none'` for browsers that do not read it from the CSP.
    'x-frame-options': 'DENY',
    ...(policy.isolated ? { 'document-isolation-policy': DOCUMENT_ISOLATION } : {}),
  }
}
