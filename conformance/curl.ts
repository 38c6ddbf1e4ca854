import type { SentRequest } from '../src/client/index.js'

/**
 * The roles of the keys a run acts with. A reproduction reads each from its
 * own environment variable, so a person sets them once and every curl of a
 * report runs as the key that made the request.
 */
export type KeyRole = 'main' | 'otherTeam' | 'noCredits' | 'revoked' | 'extra'

/** The environment variable a reproduction reads each key from. */
export const KEY_VARIABLES: Readonly<Record<KeyRole, string>> = {
  main: 'PRESENTATION_API_KEY',
  otherTeam: 'PRESENTATION_OTHER_TEAM_KEY',
  noCredits: 'PRESENTATION_NO_CREDITS_KEY',
  revoked: 'PRESENTATION_REVOKED_KEY',
  extra: 'PRESENTATION_EXTRA_KEY',
}

/** The main key's variable (`--api-key`). */
export const KEY_VARIABLE = KEY_VARIABLES.main

/** Each role in words, as a report names it. */
export const KEY_ROLE_NAMES: Readonly<Record<KeyRole, string>> = {
  main: 'main key (--api-key)',
  otherTeam: 'other-team key (--other-team-key)',
  noCredits: 'no-credits key (--no-credits-key)',
  revoked: 'revoked key (--revoked-key)',
  extra: 'a key the kit made through the control plane',
}

/**
 * How a request authenticated: which key (in words, for the report) and the
 * `Authorization` header as one shell word for curl, the secret read from a
 * variable (absent: no header was sent).
 */
export interface Credential {
  role: string
  header?: string
}

const quote = (text: string) => `'${text.replace(/'/g, `'\\''`)}'`
/** Text inside a double-quoted shell word, taken literally. */
const literal = (text: string) => text.replace(/["\\$`]/g, (c) => `\\${c}`)

/**
 * A request made with a key of `role`: the curl reads it from the role's
 * variable. `madeByKit`: the kit made the key through a control plane (no
 * flag gave it), which the report says instead of the flag.
 */
export function keyCredential(role: KeyRole, label?: string, madeByKit = false, hint?: string): Credential {
  const base =
    role === 'extra'
      ? label === undefined
        ? KEY_ROLE_NAMES.extra
        : `${label} (${KEY_ROLE_NAMES.extra})`
      : madeByKit
        ? KEY_ROLE_NAMES[role].replace(/\(--[a-z-]+\)$/, '(made by the kit through the control plane)')
        : KEY_ROLE_NAMES[role]
  const name = hint === undefined ? base : `${base}: ${hint}`
  return { role: name, header: `"Authorization: Bearer $${KEY_VARIABLES[role]}"` }
}

/**
 * Which key a reproduction needs, without giving it away: its id when known
 * and its first characters (at most 8, and never more than a third of it),
 * e.g. `key_k3x9q1 (pres_k3x…)`. A report may print this; never the key.
 */
export function keyHint(key: string, keyId?: string): string {
  const shown = key.slice(0, Math.min(8, Math.floor(key.length / 3)))
  return `${keyId === undefined ? '' : `${keyId} `}(${shown}…)`
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/**
 * Takes every secret out of a value a report is made from (deeply: strings
 * in arrays and objects): each key and token of `secrets` (and any value
 * made from one by changing its last character or appending to it) becomes
 * `<redacted>`. The last guard of every format: a server that echoes a key
 * in an error body, a message that quotes a header, never reach a report.
 */
export function scrubSecrets<T>(value: T, secrets: Iterable<string>): T {
  const patterns = [...new Set(secrets)]
    .filter((secret) => secret.length >= 6)
    .sort((a, b) => b.length - a.length)
    .map((secret) => escapeRegExp(secret.slice(0, -1)))
  if (patterns.length === 0) return value
  const pattern = new RegExp(`(?:${patterns.join('|')})[^\\s"'<>&]*`, 'g')
  const scrub = (v: unknown): unknown => {
    if (typeof v === 'string') return v.replace(pattern, '<redacted>')
    if (Array.isArray(v)) return v.map(scrub)
    if (typeof v === 'object' && v !== null) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, scrub(x)]))
    return v
  }
  return scrub(value) as T
}

/** A request without a key. */
export const NO_KEY: Credential = { role: 'no key' }

/** A made-up `Authorization` value that holds no secret (a malformed header, a fixture key): shown as sent. */
export function literalCredential(authorization: string, what: string): Credential {
  return { role: what, header: quote(`Authorization: ${authorization}`) }
}

/**
 * An `Authorization` value made from a key of `role` (one character
 * changed, characters appended): `shell` turns the role's variable name into
 * the shell expansion that makes the same value, e.g. `${V%?}y`.
 */
export function derivedCredential(role: KeyRole, what: string, shell: (variable: string) => string): Credential {
  return { role: `${what} (made from the ${KEY_ROLE_NAMES[role]})`, header: `"Authorization: Bearer ${shell(KEY_VARIABLES[role])}"` }
}

/** `suffix` appended to a key in a double-quoted shell word. */
export const appended = (suffix: string) => (variable: string) => `\${${variable}}${literal(suffix)}`
/** The key with its last character replaced by `last`. */
export const lastCharacterReplaced = (last: string) => (variable: string) => `\${${variable}%?}${literal(last)}`

/** The variables a curl command reads. */
export function variablesOf(curl: string): string[] {
  return [...new Set([...curl.matchAll(/\$\{?(PRESENTATION_[A-Z_]+)/g)].map((m) => m[1]!))]
}

/** Replaces a bearer key by a placeholder; other authorization values are shown (they are not keys). */
export function redactAuthorization(value: string): string {
  return /^Bearer\s+\S+/i.test(value) ? 'Bearer <redacted>' : value
}

/** Request headers as a report may show them: the key redacted. */
export function redactedHeaders(headers: Record<string, string>): Record<string, string> {
  const out: Record<string, string> = {}
  for (const [name, value] of Object.entries(headers))
    out[name] = name.toLowerCase() === 'authorization' ? redactAuthorization(value) : value
  return out
}

/**
 * A curl command that sends the same request, the key never written out.
 * With the request's `credential` the key is read from its role's variable
 * (or the header made from it, or shown when it holds no secret); without
 * one, any bearer key from `$PRESENTATION_API_KEY`. A body over 2 KB is
 * shortened with a note (the report's JSON has it whole).
 */
export function curlCommand(request: SentRequest, credential?: Credential): string {
  const parts = ['curl', '-i', '-X', request.method, quote(request.url)]
  for (const [name, value] of Object.entries(request.headers)) {
    if (name === 'accept') continue
    if (name.toLowerCase() === 'authorization') {
      if (credential !== undefined) continue
      if (/^Bearer\s+\S+/i.test(value)) {
        parts.push('-H', `"Authorization: Bearer $${KEY_VARIABLE}"`)
        continue
      }
    }
    parts.push('-H', quote(`${name}: ${value}`))
  }
  if (credential?.header !== undefined) parts.splice(5, 0, '-H', credential.header)
  if (request.body !== undefined) {
    if (request.body.length > 2048)
      parts.push('--data-binary', quote(`${request.body.slice(0, 2048)}…`), '# body shortened: see the JSON report')
    else parts.push('--data-raw', quote(request.body))
  }
  return parts.join(' ')
}
