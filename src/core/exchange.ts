/**
 * The emulator's own request and response values: what every way in (HTTP
 * server, msw handlers, socket-free fetch) converts to and from. They carry
 * nothing of node:http, of msw or of the Fetch API, so the core runs the same
 * in Node and in a browser.
 */

/**
 * Where a request was found in an emulator's mount table (`mounts.ts`): its
 * row, the largest body it reads, and what the row learnt while resolving
 * the path (the control plane: its route). The way in that read the request
 * resolves it once; the emulator and the row use that, never looking it up
 * again.
 */
export interface ResolvedMount {
  /** The table that resolved it (an emulator uses a resolution of its own table only). */
  readonly table: object
  readonly mount: object
  readonly bodyLimit: number
  readonly detail: unknown
}

/** An incoming request, as the core sees it. */
export interface EmulatorRequest {
  /** Upper-case HTTP method. */
  method: string
  /** The percent-encoded path, from the server's root: `/v1/projects`, `/_emulator/health`. */
  path: string
  /** The raw query string without the leading `?` (may be empty). */
  query: string
  /** Header values by lower-case name. */
  headers: Readonly<Record<string, string | undefined>>
  /** The raw body, or null when there is none. */
  body: Uint8Array | null
  /**
   * True when the body was larger than its row's limit (and so was not
   * read): the one body-size check of a request, made by the way in that
   * read it (or by the emulator, for a request handed to `handle()` as a
   * value). Rows answer 413 from it, in their own order of checks.
   */
  bodyTooLarge?: boolean
  /** The request's row, as the way in resolved it. */
  resolved?: ResolvedMount
  /**
   * True once the client has gone (closed its connection, aborted its fetch)
   * before the answer: read when the request is journaled (`clientGone`),
   * for the client report's abandoned-generate rule. Ways in that cannot
   * tell leave it out.
   */
  clientGone?: () => boolean
}

/**
 * An outgoing response. `body` is already serialized.
 *
 * A long-lived response (server-sent events) sets `stream` instead: the
 * adapter writes the headers at once, then each chunk as the iterable yields
 * it, and ends the response when the iterable ends. When the client goes
 * away first, the adapter calls the iterator's `return()`, which must release
 * everything the stream holds (listeners, timers). `body` is ignored then.
 *
 * A binary response (a slide's picture, `image/png`) sets `bytes`: the
 * adapter sends them as they are, and `body` is ignored.
 */
export interface EmulatorResponse {
  status: number
  headers: Record<string, string>
  body: string | null
  stream?: AsyncIterable<string>
  bytes?: Uint8Array
}

/** The largest request body the API accepts; larger ones are answered 413. */
export const MAX_BODY_BYTES = 1024 * 1024

/** The largest body of a state import (`PUT /_emulator/state`): a whole world can be big. */
export const MAX_STATE_BODY_BYTES = 256 * 1024 * 1024

/** The largest body of the other control-plane routes that take one (accounts, faults, …). */
export const MAX_CONTROL_BODY_BYTES = 64 * 1024

/**
 * The largest body of a route that takes none (control-plane reads, deletes,
 * `POST /reset`, pages): room for an empty JSON object some clients always send.
 */
export const MAX_NO_BODY_BYTES = 1024

const JSON_TYPE = 'application/json; charset=utf-8'

/** A JSON response: `body` serialised, or `text` when the caller has its serialisation already. */
export function jsonResponse(status: number, body: unknown, headers: Record<string, string> = {}, text?: string): EmulatorResponse {
  return { status, headers: { 'content-type': JSON_TYPE, ...headers }, body: text ?? JSON.stringify(body) }
}

/** A binary response of the given content type (a PNG, say): `bytes` as they are. */
export function bytesResponse(
  status: number,
  bytes: Uint8Array,
  contentType: string,
  headers: Record<string, string> = {},
): EmulatorResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body: null, bytes }
}

/** A text response of the given content type (HTML pages, for example). */
export function textResponse(status: number, body: string, contentType: string, headers: Record<string, string> = {}): EmulatorResponse {
  return { status, headers: { 'content-type': contentType, ...headers }, body }
}
