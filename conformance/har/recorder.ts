/**
 * A HAR 1.2 file written as exchanges happen (`proxy --record FILE.har`):
 * after every exchange the whole document is written to a temporary file
 * and renamed over the old one (write-file-atomic), so the file on disk is
 * always a complete, valid HAR, created with mode 0600 (it holds users'
 * prompts and slides). Each bearer key becomes a stable label,
 * `Bearer <key-1>`, `<key-2>`… in order of first appearance, which replay's
 * `--key key-1=…` names; cookies and other credentials become `<redacted>`.
 * Bodies are kept up to `bodyLimit` bytes and marked when cut.
 */
import writeFileAtomic from 'write-file-atomic'
import { type Har, type HarEntry, harHeaders, harQuery, truncatedComment } from '../../src/schemas/index.js'
import { VERSION } from '../../src/client/index.js'
import { bearerOf } from '../facts/observed.js'

/** Bodies are kept up to this many bytes each (1 MiB: every answer of the API fits many times over). */
export const DEFAULT_RECORD_BODY_LIMIT = 1024 * 1024

/** Headers whose values are credentials: never written. */
const SECRET_HEADERS = new Set(['cookie', 'set-cookie', 'proxy-authorization', 'x-api-key'])

/** One exchange as the proxy saw it. */
export interface SeenExchange {
  startedAt: Date
  durationMs: number
  method: string
  /** The absolute URL the request went to (the target's). */
  url: string
  requestHeaders: Record<string, string>
  /** The request body as sent (undefined: none). */
  requestBody: Buffer | undefined
  status: number
  statusText: string
  responseHeaders: Record<string, string>
  /** The response body, decoded of its Content-Encoding. */
  responseBody: Buffer
}

export class KeyLabels {
  readonly #labels = new Map<string, string>()

  /** The stable label of a key: `key-1` for the first one seen, and so on. */
  of(key: string): string {
    let label = this.#labels.get(key)
    if (label === undefined) {
      label = `key-${this.#labels.size + 1}`
      this.#labels.set(key, label)
    }
    return label
  }

  /** Request headers with the key replaced by its label and other credentials redacted. */
  redact(headers: Record<string, string>): Record<string, string> {
    const out: Record<string, string> = {}
    for (const [name, value] of Object.entries(headers)) {
      const lower = name.toLowerCase()
      if (lower === 'authorization') {
        const key = bearerOf(value)
        out[name] = key === null ? '<redacted>' : `Bearer <${this.of(key)}>`
      } else out[name] = SECRET_HEADERS.has(lower) ? '<redacted>' : value
    }
    return out
  }
}

function bodyOf(bytes: Buffer, limit: number): { text: string; comment?: string } {
  if (bytes.byteLength <= limit) return { text: bytes.toString('utf8') }
  // `stream`-less decoding of a cut may end in U+FFFD for a split character: the mark says it is cut anyway.
  return { text: bytes.subarray(0, limit).toString('utf8'), comment: truncatedComment(limit, bytes.byteLength) }
}

const mimeOf = (headers: Record<string, string>) =>
  Object.entries(headers).find(([name]) => name.toLowerCase() === 'content-type')?.[1] ?? 'application/octet-stream'

/** The HAR entry of an exchange: keys labelled, bodies kept up to `bodyLimit` bytes. */
export function harEntryOf(exchange: SeenExchange, labels: KeyLabels, bodyLimit = DEFAULT_RECORD_BODY_LIMIT): HarEntry {
  const requestHeaders = labels.redact(exchange.requestHeaders)
  const responseHeaders = Object.fromEntries(Object.entries(exchange.responseHeaders).filter(([n]) => !SECRET_HEADERS.has(n.toLowerCase())))
  return {
    startedDateTime: exchange.startedAt.toISOString(),
    time: exchange.durationMs,
    request: {
      method: exchange.method,
      url: exchange.url,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(requestHeaders),
      queryString: harQuery(exchange.url),
      ...(exchange.requestBody === undefined
        ? {}
        : { postData: { mimeType: mimeOf(exchange.requestHeaders), ...bodyOf(exchange.requestBody, bodyLimit) } }),
      headersSize: -1,
      bodySize: exchange.requestBody?.byteLength ?? 0,
    },
    response: {
      status: exchange.status,
      statusText: exchange.statusText,
      httpVersion: 'HTTP/1.1',
      cookies: [],
      headers: harHeaders(responseHeaders),
      content: {
        size: exchange.responseBody.byteLength,
        mimeType: mimeOf(exchange.responseHeaders),
        ...bodyOf(exchange.responseBody, bodyLimit),
      },
      redirectURL: '',
      headersSize: -1,
      bodySize: exchange.responseBody.byteLength,
    },
    cache: {},
    timings: { send: 0, wait: exchange.durationMs, receive: 0 },
  }
}

/**
 * The recording: `add` an exchange, and the file is rewritten whole (writes
 * are serialised; one queued behind a write in progress covers every
 * exchange added meanwhile). `flushed()` resolves once the file holds
 * every exchange added so far.
 */
export class HarRecorder {
  readonly labels = new KeyLabels()
  readonly #entries: HarEntry[] = []
  /** Each entry's JSON, made once: a rewrite joins them instead of serialising the whole log again. */
  readonly #serialized: string[] = []
  #written: Promise<void> = Promise.resolve()
  #pending: Promise<void> | undefined
  #error: Error | undefined

  private constructor(
    readonly file: string,
    readonly bodyLimit: number,
  ) {}

  /** Creates (or replaces) `file` with an empty recording, mode 0600; rejects with the file system's reason. */
  static async create(file: string, bodyLimit = DEFAULT_RECORD_BODY_LIMIT): Promise<HarRecorder> {
    const recorder = new HarRecorder(file, bodyLimit)
    await recorder.#write()
    if (recorder.#error !== undefined) throw recorder.#error
    return recorder
  }

  get size(): number {
    return this.#entries.length
  }

  /** The document as it stands. */
  document(): Har {
    return {
      log: {
        version: '1.2',
        creator: { name: 'presentation-conformance proxy', version: VERSION },
        entries: this.#entries,
      },
    }
  }

  add(exchange: SeenExchange): void {
    const entry = harEntryOf(exchange, this.labels, this.bodyLimit)
    this.#entries.push(entry)
    this.#serialized.push(JSON.stringify(entry))
    this.#schedule()
  }

  /** Resolves when the file holds every exchange added so far; rejects with the last write's error. */
  async flushed(): Promise<void> {
    await (this.#pending ?? this.#written)
    if (this.#error !== undefined) throw this.#error
  }

  #schedule(): void {
    if (this.#pending !== undefined) return
    this.#pending = this.#written.then(() => {
      this.#pending = undefined
      return this.#write()
    })
    this.#written = this.#pending
  }

  async #write(): Promise<void> {
    try {
      const { entries: _, ...log } = this.document().log
      const head = JSON.stringify({ log }).slice(0, -2)
      await writeFileAtomic(this.file, `${head},"entries":[\n${this.#serialized.join(',\n')}\n]}}\n`, { mode: 0o600 })
      this.#error = undefined
    } catch (error) {
      this.#error = error as Error
    }
  }
}
