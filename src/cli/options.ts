import { InvalidArgumentError } from 'commander'

/** Parsers for the serve flags: each throws a message commander prints before exiting 2. */

export function parseInteger(min: number, max: number) {
  return (value: string): number => {
    if (!/^-?[0-9]+$/.test(value.trim())) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`)
    const n = Number(value)
    if (n < min || n > max) throw new InvalidArgumentError(`must be a whole number from ${min} to ${max}`)
    return n
  }
}

export function parseTimeScale(value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n < 0) {
    throw new InvalidArgumentError('must be a number ≥ 0 (0 completes generations at once)')
  }
  return n
}

export function parseUrl(value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol')
    return url.origin
  } catch {
    throw new InvalidArgumentError('must be an absolute http(s) URL, e.g. http://localhost:4010')
  }
}

export function parseNonEmpty(value: string): string {
  if (value.trim() === '') throw new InvalidArgumentError('must not be empty')
  return value
}

const TRUE = new Set(['1', 'true', 'yes', 'on'])
const FALSE = new Set(['0', 'false', 'no', 'off'])

export function parseBoolean(value: string): boolean {
  const v = value.trim().toLowerCase()
  if (TRUE.has(v)) return true
  if (FALSE.has(v)) return false
  throw new InvalidArgumentError('must be true or false (also 1/0, yes/no, on/off)')
}

/** A duration in seconds (decimals allowed), returned in milliseconds. */
export function parseSeconds(value: string): number {
  const n = Number(value)
  if (value.trim() === '' || !Number.isFinite(n) || n <= 0 || n > 86_400) {
    throw new InvalidArgumentError('must be a number of seconds > 0 (decimals allowed, at most 86400)')
  }
  return Math.round(n * 1000)
}

/** A repeatable flag: every value (and every comma-separated part of one, as an env var gives) is appended. */
export function collect(parse: (value: string) => string) {
  return (value: string, previous: string[] | undefined): string[] => [
    ...(previous ?? []),
    ...value
      .split(',')
      .map((part) => part.trim())
      .filter((part) => part !== '')
      .map(parse),
  ]
}

export function parseOrigin(value: string): string {
  try {
    const url = new URL(value)
    if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new Error('protocol')
    return url.origin
  } catch {
    throw new InvalidArgumentError('must be an http(s) origin, e.g. http://localhost:3000')
  }
}

export function parseHostName(value: string): string {
  if (!/^(?:[A-Za-z0-9-]+(?:\.[A-Za-z0-9-]+)*\.?|\[[0-9A-Fa-f:.]+\])$/.test(value)) {
    throw new InvalidArgumentError('must be a host name without port, e.g. emulator or decks.example.com')
  }
  return value.toLowerCase()
}

/** An API base URL, as the conformance kit takes it: absolute http(s), its path ending in /v1 (kept whole, a trailing slash dropped). */
export function parseApiBaseUrl(value: string): string {
  let url: URL
  try {
    url = new URL(value)
  } catch {
    throw new InvalidArgumentError('must be an API base URL ending in /v1, e.g. http://127.0.0.1:4010/v1')
  }
  if ((url.protocol !== 'http:' && url.protocol !== 'https:') || !/\/v1\/?$/.test(url.pathname))
    throw new InvalidArgumentError('must be an API base URL ending in /v1, e.g. http://127.0.0.1:4010/v1')
  return value.replace(/\/+$/, '')
}
