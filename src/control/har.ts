/**
 * The request journal as HAR 1.2 (`GET /_emulator/requests.har`): oldest
 * first, the journal's filters, each body cut where the listing's
 * `bodyLimit` cut it and marked so (`comment: "truncated: …"`), keys
 * already redacted by the journal (`Bearer <key_alice>`). A session
 * against the emulator so becomes a recording that `presentation-conformance
 * replay` sends to a deployment.
 */
import type { JournalEntry, JournalMessage } from '../core/journal.js'
import { type Har, type HarEntry, harHeaders, harQuery, truncatedComment } from '../schemas/har.js'
import { VERSION } from '../version.js'

const mimeOf = (headers: Record<string, string>) => headers['content-type'] ?? 'application/json'

function body(message: JournalMessage): { text?: string; comment?: string } {
  const out: { text?: string; comment?: string } = {}
  if (message.body !== null) out.text = message.body
  if (message.bodyTruncated)
    out.comment = truncatedComment(message.body === null ? 0 : new TextEncoder().encode(message.body).byteLength, message.bodySize)
  return out
}

/** One journal entry as a HAR entry, its URL under `origin`. */
export function harEntryOf(entry: JournalEntry, origin: string): HarEntry {
  const url = `${origin}${entry.path}${entry.query === '' ? '' : `?${entry.query}`}`
  const { request, response } = entry
  return {
    startedDateTime: entry.time,
    time: entry.durationMs,
    request: {
      method: entry.method,
      url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(request.headers),
      queryString: harQuery(url),
      ...(request.body === null && !request.bodyTruncated ? {} : { postData: { mimeType: mimeOf(request.headers), ...body(request) } }),
      headersSize: -1,
      bodySize: request.bodySize,
    },
    response: {
      status: entry.status,
      statusText: '',
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(response.headers),
      content: { size: response.bodySize, mimeType: mimeOf(response.headers), ...body(response) },
      redirectURL: '',
      headersSize: -1,
      bodySize: response.bodySize,
    },
    cache: {},
    timings: { send: 0, wait: entry.durationMs, receive: 0 },
    comment: entry.id,
  }
}

/** Journal entries (newest first, as the journal lists them) as a HAR document, oldest first. */
export function journalHar(entries: readonly JournalEntry[], origin: string): Har {
  return {
    log: {
      version: '1.2',
      creator: { name: 'presentation-emulator', version: VERSION },
      entries: [...entries].reverse().map((entry) => harEntryOf(entry, origin)),
    },
  }
}
