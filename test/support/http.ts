/** How test requests are built and their answers read, shared by the harness and the CLI helpers. */

export interface SendOptions {
  /** API key sent as `Authorization: Bearer <key>`; `null` sends no header. */
  key?: string | null
  /** A JSON value to send as the body. */
  json?: unknown
  /** A raw body string (sent as is). */
  raw?: string
  headers?: Record<string, string>
}

/** The `RequestInit` of a test request: the API key as a bearer token (default `pres_test_alice`), a JSON or raw body. */
export function requestInit(method: string, options: SendOptions): RequestInit {
  const headers: Record<string, string> = { ...options.headers }
  const key = options.key === undefined ? 'pres_test_alice' : options.key
  if (key !== null) headers.authorization = `Bearer ${key}`
  let body: string | undefined
  if (options.json !== undefined) {
    body = JSON.stringify(options.json)
    headers['content-type'] ??= 'application/json'
  } else if (options.raw !== undefined) {
    body = options.raw
    headers['content-type'] ??= 'application/json'
  }
  return { method, headers, body }
}

/** The JSON of a body, or undefined when it is empty or not JSON. */
export function parseBody(text: string): any {
  if (text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}
