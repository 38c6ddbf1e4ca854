import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { DateTime, isRfc3339DateTime } from './common.js'

/** The reading of RFC 3339 the emulator has always had: a match, its fields as numbers, the month's length from `Date.UTC`. */
function reference(text: string): boolean {
  const match = /^(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.\d+)?(?:[Zz]|[+-](\d{2}):(\d{2}))$/.exec(text)
  if (match === null) return false
  const [, year, month, day, hour, minute, second, offsetHour, offsetMinute] = match.map(Number) as number[]
  const daysInMonth = new Date(Date.UTC(year!, month!, 0)).getUTCDate()
  return (
    month! >= 1 &&
    month! <= 12 &&
    day! >= 1 &&
    day! <= daysInMonth &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 60 &&
    (Number.isNaN(offsetHour) || (offsetHour! <= 23 && offsetMinute! <= 59))
  )
}

const digits = (n: number) => fc.string({ unit: fc.constantFrom(...'0123456789'), minLength: n, maxLength: n })

/** Strings shaped like a date-time, with every field anywhere in 00-99 (so invalid days, months and offsets too). */
const dateLike = fc
  .tuple(
    digits(4),
    digits(2),
    digits(2),
    fc.constantFrom('T', 't', ' '),
    digits(2),
    digits(2),
    digits(2),
    fc.constantFrom('', '.5', '.123', '.'),
    fc.oneof(
      fc.constantFrom('Z', 'z', ''),
      fc.tuple(fc.constantFrom('+', '-'), digits(2), digits(2)).map(([sign, h, m]) => `${sign}${h}:${m}`),
    ),
  )
  .map(([y, mo, d, t, h, mi, s, f, z]) => `${y}-${mo}-${d}${t}${h}:${mi}:${s}${f}${z}`)

describe('isRfc3339DateTime', () => {
  it('agrees with the match-and-Date reading on every date-shaped string, invalid fields included', () => {
    fc.assert(
      fc.property(dateLike, (text) => isRfc3339DateTime(text) === reference(text)),
      { numRuns: 20_000 },
    )
  })

  it('agrees on the edges: leap days (years 0-99 counted as 1900-1999, as Date.UTC does), leap seconds, offsets', () => {
    const cases = [
      '2024-02-29T00:00:00Z',
      '2023-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '1900-02-29T00:00:00Z',
      '0004-02-29T00:00:00Z',
      '0000-02-29T00:00:00Z',
      '0400-02-29T00:00:00Z',
      '2026-04-31T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-12-31T23:59:61Z',
      '2026-01-01T24:00:00Z',
      '2026-01-01T00:60:00Z',
      '2026-01-01T00:00:00+23:59',
      '2026-01-01T00:00:00+24:00',
      '2026-01-01T00:00:00-05:60',
      '2026-13-01T00:00:00Z',
      '2026-00-01T00:00:00Z',
      '2026-01-00T00:00:00Z',
      '2026-01-01T00:00:00.000Z',
      '2026-01-01T00:00:00',
      '',
      '2026-01-01T00:00:00ZZ',
      '２０２６-01-01T00:00:00Z',
    ]
    for (const text of cases) expect(isRfc3339DateTime(text), text).toBe(reference(text))
    expect(cases.filter(isRfc3339DateTime)).toEqual([
      '2024-02-29T00:00:00Z',
      '2000-02-29T00:00:00Z',
      '0004-02-29T00:00:00Z',
      '0400-02-29T00:00:00Z',
      '2026-12-31T23:59:60Z',
      '2026-01-01T00:00:00+23:59',
      '2026-01-01T00:00:00.000Z',
    ])
  })

  it('is what DateTime checks', () => {
    expect(DateTime.safeParse('2026-02-30T00:00:00Z').success).toBe(false)
    expect(DateTime.safeParse('2026-02-28T00:00:00-05:30').success).toBe(true)
  })
})
