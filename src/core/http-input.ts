import { fail } from './errors.js'
import type { EmulatorRequest } from './exchange.js'
import { jsonTextDepthExceeded, MAX_JSON_DEPTH } from './json-depth.js'

const UTF8 = new TextDecoder('utf-8', { fatal: true })

/** Parses a raw query string; a parameter given twice is a 400. */
export function parseQuery(raw: string): Record<string, string> {
  const query: Record<string, string> = {}
  for (const [key, value] of new URLSearchParams(raw)) {
    if (Object.hasOwn(query, key)) throw fail.validation(`${key}: given more than once`)
    query[key] = value
  }
  return query
}

/**
 * The JSON body of a request. An empty body is `{}` unless `required`;
 * bytes that are not UTF-8 or not JSON, or JSON nested deeper than
 * `MAX_JSON_DEPTH` levels, are a 400 saying so.
 */
export function readJsonBody(request: EmulatorRequest, required: boolean): unknown {
  const bytes = request.body
  if (bytes === null || bytes.byteLength === 0) {
    if (required) throw fail.validation('a JSON request body is required')
    return {}
  }
  let text: string
  try {
    text = UTF8.decode(bytes)
  } catch {
    throw fail.invalidJson('the body is not valid UTF-8 text')
  }
  if (text.trim() === '') {
    if (required) throw fail.validation('a JSON request body is required')
    return {}
  }
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw fail.invalidJson(`the body is not valid JSON (${(error as Error).message})`)
  }
  if (typeof value === 'object' && value !== null) {
    const tooDeep = jsonTextDepthExceeded(text)
    if (tooDeep !== -1)
      throw fail.validation(`the body is nested deeper than ${MAX_JSON_DEPTH} levels of arrays and objects (at character ${tooDeep + 1})`)
  }
  return value
}

/** Percent-decodes path parameters; a malformed escape is a 400. */
export function decodeParams(params: Record<string, string>): Record<string, string> {
  const decoded: Record<string, string> = {}
  for (const [key, value] of Object.entries(params)) {
    try {
      decoded[key] = decodeURIComponent(value)
    } catch {
      throw fail.validation(`${key}: malformed percent-encoding in the path`)
    }
  }
  return decoded
}

/** The token of an `Authorization: Bearer <token>` header, or undefined. */
export function bearer(header: string | undefined): string | undefined {
  if (header === undefined) return undefined
  const match = /^Bearer[ \t]+(\S+)[ \t]*$/i.exec(header)
  return match?.[1]
}
