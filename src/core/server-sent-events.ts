/**
 * Server-sent events (the `text/event-stream` format of the HTML standard)
 * as an `EmulatorResponse.stream`: a push-based async iterable of text
 * chunks that every adapter (node:http, the Fetch API, msw) writes as it
 * comes. It knows nothing of any of them.
 */
import type { EmulatorResponse } from './exchange.js'

/** How often a comment line is sent so proxies and browsers keep an idle stream open. */
export const HEARTBEAT_MS = 15_000

/** How long a browser waits before reconnecting a dropped stream (the `retry:` field). */
export const RECONNECT_MS = 1_000

/** Past this many unsent chunks a stream is ended: the client is not reading, and it reconnects to a fresh state. */
const MAX_QUEUED_CHUNKS = 256

/**
 * A stream whose client has read nothing for this many heartbeats while
 * chunks wait is ended. A client that goes away without the adapter
 * noticing (a reader cancelled behind msw's copy of the response) is let
 * go of this way.
 */
const STALE_HEARTBEATS = 2

/** One event: an optional `event:` line, then one `data:` line per line of `data`, then a blank line. */
export function sseEvent(data: string, event?: string): string {
  const name = event === undefined ? '' : `event: ${event.replace(/[\r\n]/g, '')}\n`
  return `${name}${data
    .split(/\r\n|\r|\n/)
    .map((line) => `data: ${line}\n`)
    .join('')}\n`
}

/** A comment line: ignored by the client, it only keeps the connection busy. */
export function sseComment(text: string): string {
  return `: ${text.replace(/[\r\n]/g, ' ')}\n\n`
}

/** What the producer of a stream writes to. */
export interface EventSink {
  /** Sends one event; ignored once the stream is closed. */
  send(data: string, event?: string): void
  /** Ends the stream from the server side. */
  end(): void
  readonly closed: boolean
}

export interface EventStreamOptions {
  /** Interval of the heartbeat comment (default 15 s). */
  heartbeatMs?: number
  /** The `retry:` field sent first (default 1 s). */
  reconnectMs?: number
}

/**
 * A stream of server-sent events. `start` runs when an adapter starts
 * reading; it subscribes to whatever feeds the stream and returns the
 * function that unsubscribes. That function runs exactly once: when the
 * client goes away (the adapter calls the iterator's `return()`), when
 * the producer calls `end()`, or when a client stops reading.
 */
export function eventStream(start: (sink: EventSink) => () => void, options: EventStreamOptions = {}): AsyncIterable<string> {
  return {
    [Symbol.asyncIterator]: () => new EventStreamIterator(start, options.heartbeatMs ?? HEARTBEAT_MS, options.reconnectMs ?? RECONNECT_MS),
  }
}

/** A `200 text/event-stream` response around `eventStream(start)`. */
export function eventStreamResponse(
  start: (sink: EventSink) => () => void,
  options: EventStreamOptions & { headers?: Record<string, string> } = {},
): EmulatorResponse {
  return {
    status: 200,
    headers: {
      'content-type': 'text/event-stream; charset=utf-8',
      'cache-control': 'no-store',
      // Tells a buffering reverse proxy (nginx) to pass events through at once.
      'x-accel-buffering': 'no',
      'x-content-type-options': 'nosniff',
      ...options.headers,
    },
    body: null,
    stream: eventStream(start, options),
  }
}

class EventStreamIterator implements AsyncIterator<string> {
  readonly #queue: string[] = []
  #waiting: ((result: IteratorResult<string>) => void) | undefined
  #closed = false
  #cleanup: (() => void) | undefined
  readonly #heartbeat: ReturnType<typeof setInterval>
  /** Heartbeats since the client last read, counted only while chunks wait. */
  #unread = 0

  constructor(start: (sink: EventSink) => () => void, heartbeatMs: number, reconnectMs: number) {
    this.#push(`retry: ${reconnectMs}\n\n`)
    this.#heartbeat = setInterval(() => {
      if (this.#queue.length > 0 && ++this.#unread >= STALE_HEARTBEATS) this.#close()
      else this.#push(sseComment('heartbeat'))
    }, heartbeatMs)
    // A heartbeat never keeps a Node process alive on its own.
    ;(this.#heartbeat as { unref?: () => void }).unref?.()
    const sink: EventSink = {
      send: (data, event) => this.#push(sseEvent(data, event)),
      end: () => this.#close(),
      get closed() {
        return iterator.#closed
      },
    }
    const iterator = this
    try {
      const cleanup = start(sink)
      if (this.#closed) cleanup()
      else this.#cleanup = cleanup
    } catch (error) {
      this.#close()
      throw error
    }
  }

  next(): Promise<IteratorResult<string>> {
    this.#unread = 0
    const chunk = this.#queue.shift()
    if (chunk !== undefined) return Promise.resolve({ value: chunk, done: false })
    if (this.#closed) return Promise.resolve({ value: undefined, done: true })
    return new Promise((resolve) => {
      this.#waiting = resolve
    })
  }

  /** The client went away: release everything now, even while a `next()` is pending. */
  return(): Promise<IteratorResult<string>> {
    this.#queue.length = 0
    this.#close()
    return Promise.resolve({ value: undefined, done: true })
  }

  #push(chunk: string): void {
    if (this.#closed) return
    const waiting = this.#waiting
    if (waiting !== undefined) {
      this.#waiting = undefined
      waiting({ value: chunk, done: false })
      return
    }
    this.#queue.push(chunk)
    if (this.#queue.length > MAX_QUEUED_CHUNKS) this.#close()
  }

  #close(): void {
    if (this.#closed) return
    this.#closed = true
    clearInterval(this.#heartbeat)
    const cleanup = this.#cleanup
    this.#cleanup = undefined
    cleanup?.()
    const waiting = this.#waiting
    this.#waiting = undefined
    waiting?.({ value: undefined, done: true })
  }
}
