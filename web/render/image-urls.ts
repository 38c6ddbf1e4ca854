/**
 * Which images a slide may load, decided by what the browser's URL parser
 * makes of a URL, never by its first characters: `/\host/x`, `\\host`,
 * `/<tab>/host` and `//host` all start like a path and all name another
 * host (the parser reads `\` as `/` in http(s) URLs and drops tabs and
 * newlines), so none is a path of the emulator's own, and without a
 * scheme of its own none is a remote image either; `/%5Chost` is a path
 * of the emulator's own. The same rules
 * hold in the content view (`web/pages/html.ts`), in the list of images a
 * slide's content names (`slide-render.ts`), in a display frame's
 * Content-Security-Policy (`documents.ts`) and in the renderer's sanitiser
 * (`client/sanitize.ts`):
 *
 * - `data:` URLs load;
 * - a URL on the emulator's own origin loads if its path is outside the
 *   API and the control plane (`imagePathAllowed`) and does not end in `/`
 *   (a policy can name such a path only as a whole folder); the API and
 *   the control plane are refused under the machine's other names too
 *   (`localhost`, `[::1]`, `127.1` at the emulator's port);
 * - a URL of another origin loads only with `--allow-remote-images`;
 * - a URL whose meaning depends on the page it is on (`x.png`, `?q`,
 *   `#f`, and `//host/x` or `/\host/x`, whose scheme is the page's), of
 *   another scheme or with credentials never does.
 *
 * In the component view a slide loads, besides `data:` ones, only the
 * images its `slide.content.json` names (`slideImages`): exactly those go
 * into its display frame's policy. Pure: runs in Node and in the frames.
 */
import { imagePathAllowed, MAX_REMOTE_IMAGE_URL, MAX_REMOTE_IMAGES } from './limits.js'

/** What a URL a slide names is, read as a page of the emulator's origin would read it. */
export type ImageUrl =
  | { kind: 'data' }
  /** On the emulator's own origin: its path and query (`/x.png?v=2`). */
  | { kind: 'own'; path: string }
  /** On another origin: the URL without its fragment, as the parser writes it. */
  | { kind: 'remote'; url: string; host: string }
  | { kind: 'refused'; why: ImageRefusal; scheme?: string }

/**
 * Why an image URL never loads: `relative` (it means something else on each page), `scheme` (not
 * http(s) or data:), `credentials` (a user name or password in it), `api` (the emulator's API or control
 * plane), `folder` (a path of the emulator's own that ends in `/`), `invalid` (no URL at all).
 */
export type ImageRefusal = 'relative' | 'scheme' | 'credentials' | 'api' | 'folder' | 'invalid'

/** Two pages of the same origin: a URL that resolves differently against them depends on the page it is on. */
const PAGES = ['/_a/b/c?q#f', '/_d/e?r#g'] as const

/** The origin of an origin or URL text (`http://host:port`), or undefined. */
function originOf(text: string): string | undefined {
  try {
    return new URL(text).origin
  } catch {
    return undefined
  }
}

/** Host names of this machine, as the URL parser writes them (it writes `127.1`, `0x7f.1` and `2130706433` as `127.0.0.1`). */
function loopback(hostname: string): boolean {
  return (
    hostname === 'localhost' ||
    hostname.endsWith('.localhost') ||
    /^127\.\d+\.\d+\.\d+$/.test(hostname) ||
    hostname === '0.0.0.0' ||
    hostname === '[::1]' ||
    hostname === '[::]' ||
    /^\[::ffff:7f[0-9a-f]{2}:[0-9a-f]{1,4}\]$/.test(hostname)
  )
}

const port = (url: URL) => url.port || (url.protocol === 'https:' ? '443' : '80')

/** Whether `url` names this machine at the port of `own` (the emulator listens there, whatever name it was reached by). */
function sameMachine(url: URL, own: URL): boolean {
  return loopback(url.hostname) && port(url) === port(own)
}

/** What `raw` is as an image URL of a page of `origin` (the emulator's, `http://host:port`). */
export function readImageUrl(raw: string, origin: string): ImageUrl {
  const own = originOf(origin)
  let first: URL
  let second: URL
  try {
    first = new URL(raw, `${own}${PAGES[0]}`)
    second = new URL(raw, `${own}${PAGES[1]}`)
  } catch {
    return { kind: 'refused', why: 'invalid' }
  }
  if (first.href !== second.href) return { kind: 'refused', why: 'relative' }
  // Without a scheme of its own, a URL that leaves the emulator's origin (`//host`, `/\\host`) takes its scheme from the page.
  if (first.origin !== own && originOf(raw) === undefined) return { kind: 'refused', why: 'relative' }
  if (first.protocol === 'data:') return { kind: 'data' }
  if (first.protocol !== 'http:' && first.protocol !== 'https:')
    return { kind: 'refused', why: 'scheme', scheme: first.protocol.slice(0, -1) }
  if (first.username !== '' || first.password !== '') return { kind: 'refused', why: 'credentials' }
  if (first.origin === own) {
    if (!imagePathAllowed(first.pathname)) return { kind: 'refused', why: 'api' }
    if (first.pathname.endsWith('/')) return { kind: 'refused', why: 'folder' }
    return { kind: 'own', path: `${first.pathname}${first.search}` }
  }
  // The emulator under another name of this machine (`localhost` for `127.0.0.1`, `[::1]`, `127.1`) at its port is the emulator too.
  if (!imagePathAllowed(first.pathname) && own !== undefined && sameMachine(first, new URL(own))) return { kind: 'refused', why: 'api' }
  first.hash = ''
  return { kind: 'remote', url: first.href, host: first.host }
}

/**
 * How much of a display frame's address the images may take (as its `img=` query parameters): the
 * address is a request line, and the emulator answers one over 16 KiB of headers with a 431.
 */
export const MAX_IMAGE_QUERY_CHARS = 12_000

/**
 * The images a slide may load besides `data:` ones: each string of its parsed
 * `slide.content.json` (at any depth) that is an image URL of the emulator's
 * own origin (as its path and query) or, with `allowRemote`, of another
 * origin (as the parser writes it, without its fragment). At most
 * `MAX_REMOTE_IMAGES`, each at most `MAX_REMOTE_IMAGE_URL` long, all of
 * them within `MAX_IMAGE_QUERY_CHARS` of the frame's address.
 */
export function slideImages(content: unknown, origin: string, allowRemote: boolean): string[] {
  const found = new Set<string>()
  let room = MAX_IMAGE_QUERY_CHARS
  const add = (image: string) => {
    const size = encodeURIComponent(image).length + 5
    if (image.length > MAX_REMOTE_IMAGE_URL || found.has(image) || size > room) return
    found.add(image)
    room -= size
  }
  const visit = (value: unknown, depth: number): void => {
    if (found.size >= MAX_REMOTE_IMAGES || depth > 64) return
    if (typeof value === 'string') {
      if (value.length > MAX_REMOTE_IMAGE_URL) return
      const read = readImageUrl(value, origin)
      if (read.kind === 'own') add(read.path)
      else if (read.kind === 'remote' && allowRemote) add(read.url)
      return
    }
    if (Array.isArray(value)) for (const item of value) visit(item, depth + 1)
    else if (typeof value === 'object' && value !== null) for (const item of Object.values(value)) visit(item, depth + 1)
  }
  visit(content, 0)
  return [...found]
}

/**
 * The absolute URLs (without fragment) a frame of `origin` may load images
 * from, of a slide's list (`slideImages`): its own paths on `origin`, its
 * remote URLs as they are. Anything the list holds that is not an image URL
 * by these rules is left out.
 */
export function allowedImageUrls(images: readonly string[], origin: string): Set<string> {
  const own = originOf(origin)
  const urls = new Set<string>()
  for (const image of images) {
    const read = readImageUrl(image, origin)
    if (read.kind === 'own') urls.add(`${own}${read.path}`)
    else if (read.kind === 'remote') urls.add(read.url)
  }
  return urls
}

/**
 * Whether a frame may load `raw` (an attribute's value or a CSS URL, as
 * the browser reads it), resolved against the frame's `base`: a `data:`
 * URL, or one of `allowed` (from `allowedImageUrls`). With `fragments`, a
 * reference to an element of the same document (`#id`: an SVG paint, mask
 * or filter) is allowed too; it loads nothing. An empty value loads
 * nothing either.
 */
export function frameMayLoad(raw: string, base: string, allowed: ReadonlySet<string>, fragments: boolean): boolean {
  const value = raw.replace(/^[\u0000-\u0020]+|[\u0000-\u0020]+$/g, '')
  if (value === '') return true
  if (fragments && value.startsWith('#')) return true
  let url: URL
  try {
    url = new URL(value, base)
  } catch {
    return false
  }
  if (url.protocol === 'data:') return true
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return false
  url.hash = ''
  return allowed.has(url.href)
}
