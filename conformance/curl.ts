import type { SentRequest } from '../src/client/index.js'

/** The environment variable a reproduction reads the key from. */
export const KEY_VARIABLE = 'PRESENTATION_API_KEY'

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`

/** Replaces a bearer key by a placeholder; other authorization values are shown (they are not keys). */
export function redactAuthorization(value: string): string {
  return /^Bearer\s+\S+/i.test(value) ? 'Bearer <redacted>' : value
}

/** Request headers as a report may show them: the key redacted. */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers)) out[name] = name.toLowerCase() === 'authorization' ? redactAuthorization(value) : value
  return out
}

/**
 * A curl command that sends the same request, with the key read from
 * `$PRESENTATION_API_KEY` instead of written out. A body over 2 KB is
 * shortened with a note (the report's JSON has it whole).
 */
export function curlCommand(request: SentRequest): string {
  const parts = ['curl', '-i', '-X', request.method, quote(request.url)]
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue
    if (name.toLowerCase() === 'authorization' && /^Bearer\s+\S+/i.test(value)) {
      parts.push('-H', `"Authorization: Bearer $${KEY_VARIABLE}"`)
    } else {
      parts.push('-H', quote(`${name}: ${value}`))
    }
  }
  if (request.body !== undefined) {
    if (request.body.length > 2048) parts.push('--data-binary', quote(`${request.body.slice(0, 2048)}…`), '# body shortened: see the JSON report')
    else parts.push('--data-raw', quote(request.body))
  }
  return parts.join(' ')
}
