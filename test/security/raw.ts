import { connect, type Socket } from 'node:net'

/** A raw TCP client for what fetch cannot send: partial requests, huge headers, bytes that are not HTTP. */
export interface RawConnection {
  socket: Socket
  /** Everything received so far, as latin1 text. */
  readonly received: string
  /**
   * Resolves once the server closed the connection, with what it sent, or with `closed: false` after
   * `timeoutMs` (a guard against a hang, long enough for a busy machine: no test measures how soon).
   */
  closed(timeoutMs?: number): Promise<{ text: string; closed: boolean }>
  /** Resolves once `pattern` appears in what was received (rejects after `timeoutMs`, a guard against a hang). */
  waitFor(pattern: RegExp, timeoutMs?: number): Promise<string>
}

/** How long a raw connection waits for the server before giving up: only a hang takes this long. */
const PATIENCE_MS = 60_000

export async function rawConnect(port: number, host = '127.0.0.1'): Promise<RawConnection> {
  const socket = connect({ port, host })
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve)
    socket.once('error', reject)
  })
  let received = ''
  let closed = false
  const waiters = new Set<() => void>()
  socket.on('data', (chunk: Buffer) => {
    received += chunk.toString('latin1')
    for (const waiter of [...waiters]) waiter()
  })
  socket.on('error', () => undefined)
  socket.on('close', () => {
    closed = true
    for (const waiter of [...waiters]) waiter()
  })
  const until = <T>(check: () => T | undefined, timeoutMs: number, onTimeout: () => T): Promise<T> =>
    new Promise((resolve, reject) => {
      const run = () => {
        const value = check()
        if (value === undefined) return
        finish(() => value)
      }
      const timer = setTimeout(() => finish(onTimeout), timeoutMs)
      const finish = (value: () => T) => {
        clearTimeout(timer)
        waiters.delete(run)
        try {
          resolve(value())
        } catch (error) {
          reject(error)
        }
      }
      waiters.add(run)
      run()
    })
  return {
    socket,
    get received() {
      return received
    },
    closed: (timeoutMs = PATIENCE_MS) =>
      until(
        () => (closed ? { text: received, closed: true as boolean } : undefined),
        timeoutMs,
        () => ({ text: received, closed: false }),
      ),
    waitFor: (pattern, timeoutMs = PATIENCE_MS) =>
      until(
        () => (pattern.test(received) ? received : undefined),
        timeoutMs,
        () => {
          throw new Error(`no ${pattern} within ${timeoutMs} ms; received: ${JSON.stringify(received.slice(0, 500))}`)
        },
      ),
  }
}

/** The status, lower-case headers and body of a raw HTTP/1.1 response text. */
export function parseRawResponse(text: string): { status: number; headers: Record<string, string>; body: string } {
  const end = text.indexOf('\r\n\r\n')
  const head = end === -1 ? text : text.slice(0, end)
  const [statusLine, ...lines] = head.split('\r\n')
  const headers: Record<string, string> = {}
  for (const line of lines) {
    const colon = line.indexOf(':')
    if (colon > 0) headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
  }
  return { status: Number(/^HTTP\/1\.[01] (\d{3})/.exec(statusLine ?? '')?.[1] ?? 0), headers, body: end === -1 ? '' : text.slice(end + 4) }
}
