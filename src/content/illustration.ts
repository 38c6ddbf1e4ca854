import type { Faker } from '@faker-js/faker'

/**
 * Seeded abstract illustrations for the "image with text" design, as
 * `data:image/svg+xml` URLs in the project's colours: nothing remote, no
 * text, no script, a few hundred bytes each.
 */

/** The colours an illustration is drawn in (hex; anything else falls back). */
export interface IllustrationColors {
  primary?: string | undefined
  accent?: string | undefined
}

export interface Illustration {
  url: string
  alt: string
}

const HEX = /^#(?:[0-9a-f]{3}|[0-9a-f]{6})$/i
const FALLBACK = { primary: '#1d4ed8', accent: '#f59e0b' }

type Draw = (faker: Faker, primary: string, accent: string) => string

const round = (n: number) => Math.round(n)

/** Rising bars under a trend line. */
const bars: Draw = (faker, primary, accent) => {
  const heights = Array.from({ length: 5 }, (_, i) => 90 + i * 42 + faker.number.int({ min: -25, max: 25 }))
  const rects = heights
    .map(
      (h, i) =>
        `<rect x="${100 + i * 96}" y="${400 - h}" width="64" height="${h}" rx="10" fill="${primary}" opacity="${(0.35 + i * 0.15).toFixed(2)}"/>`,
    )
    .join('')
  const points = heights.map((h, i) => `${132 + i * 96},${round(372 - h)}`).join(' ')
  const dots = heights.map((h, i) => `<circle cx="${132 + i * 96}" cy="${round(372 - h)}" r="9" fill="${accent}"/>`).join('')
  return `<path d="M80 400H580" stroke="${primary}" stroke-opacity=".3" stroke-width="4"/>${rects}<polyline points="${points}" fill="none" stroke="${accent}" stroke-width="7" stroke-linecap="round" stroke-linejoin="round"/>${dots}`
}

/** Circles joined into one network. */
const network: Draw = (faker, primary, accent) => {
  const nodes = Array.from({ length: 7 }, (_, i) => {
    const angle = (i / 7) * Math.PI * 2 + faker.number.float({ min: -0.25, max: 0.25 })
    const radius = i === 0 ? 0 : faker.number.int({ min: 120, max: 170 })
    return [round(320 + Math.cos(angle) * radius * 1.25), round(240 + Math.sin(angle) * radius)] as const
  })
  const outer = nodes.slice(1)
  const lines = outer.map(([x, y]) => `<path d="M320 240L${x} ${y}" stroke="${primary}" stroke-opacity=".35" stroke-width="5"/>`).join('')
  // Each outer node joined to the next, round the ring.
  const ring = outer
    .map(([x, y], i) => {
      const [nx, ny] = outer[(i + 1) % outer.length]!
      return `<path d="M${x} ${y}L${nx} ${ny}" stroke="${primary}" stroke-opacity=".18" stroke-width="4"/>`
    })
    .join('')
  const circles = outer
    .map(
      ([x, y], i) =>
        `<circle cx="${x}" cy="${y}" r="${22 + (i % 3) * 8}" fill="${i % 2 === 0 ? primary : accent}" opacity="${i % 2 === 0 ? '.75' : '.9'}"/>`,
    )
    .join('')
  return `${ring}${lines}${circles}<circle cx="320" cy="240" r="54" fill="${primary}"/><circle cx="320" cy="240" r="24" fill="${accent}"/>`
}

/** Layered hills under a sun. */
const hills: Draw = (faker, primary, accent) => {
  const crest = (base: number, amp: number) => {
    const a = faker.number.int({ min: 0, max: amp })
    const b = faker.number.int({ min: 0, max: amp })
    return `M0 ${base}C160 ${base - a} 240 ${base - amp} 330 ${base - b}S520 ${base - amp} 640 ${base - a}V480H0Z`
  }
  const sunX = faker.number.int({ min: 380, max: 500 })
  return `<circle cx="${sunX}" cy="150" r="62" fill="${accent}"/><path d="${crest(330, 90)}" fill="${primary}" opacity=".3"/><path d="${crest(380, 70)}" fill="${primary}" opacity=".55"/><path d="${crest(430, 50)}" fill="${primary}"/>`
}

/** Stacked cards of a dashboard: a ring chart and a sparkline. */
const cards: Draw = (faker, primary, accent) => {
  const share = faker.number.int({ min: 35, max: 85 })
  const circumference = 2 * Math.PI * 58
  const spark = Array.from({ length: 7 }, (_, i) => `${350 + i * 38},${round(330 - i * 14 - faker.number.int({ min: 0, max: 40 }))}`).join(
    ' ',
  )
  return `<rect x="70" y="70" width="500" height="340" rx="26" fill="${primary}" opacity=".12"/><rect x="100" y="104" width="200" height="24" rx="12" fill="${primary}" opacity=".55"/><rect x="100" y="144" width="130" height="16" rx="8" fill="${primary}" opacity=".3"/><circle cx="200" cy="290" r="58" fill="none" stroke="${primary}" stroke-opacity=".2" stroke-width="26"/><circle cx="200" cy="290" r="58" fill="none" stroke="${accent}" stroke-width="26" stroke-dasharray="${round((circumference * share) / 100)} ${round(circumference)}" transform="rotate(-90 200 290)"/><polyline points="${spark}" fill="none" stroke="${primary}" stroke-width="8" stroke-linecap="round" stroke-linejoin="round"/><circle cx="578" cy="${spark.split(' ').pop()!.split(',')[1]}" r="12" fill="${accent}"/>`
}

const MOTIFS: ReadonlyArray<{ draw: Draw; alt: string }> = [
  { draw: bars, alt: 'Abstract illustration: rising bars and one trend line' },
  { draw: network, alt: 'Abstract illustration: connected circles forming one network' },
  { draw: hills, alt: 'Abstract illustration: layered hills under the sun' },
  { draw: cards, alt: 'Abstract illustration: dashboard cards with ring chart and rising line' },
]

/** SVG text as a data: URL, escaping only what a URL and an attribute need. */
function svgDataUrl(svg: string): string {
  return `data:image/svg+xml,${svg.replace(/"/g, "'").replace(/%/g, '%25').replace(/#/g, '%23').replace(/</g, '%3C').replace(/>/g, '%3E')}`
}

/** A seeded illustration in `colors`, with its alt text. */
export function illustration(faker: Faker, colors: IllustrationColors = {}): Illustration {
  const primary = colors.primary !== undefined && HEX.test(colors.primary) ? colors.primary.toLowerCase() : FALLBACK.primary
  const accent = colors.accent !== undefined && HEX.test(colors.accent) ? colors.accent.toLowerCase() : FALLBACK.accent
  const motif = faker.helpers.arrayElement(MOTIFS)
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 640 480">${motif.draw(faker, primary, accent)}</svg>`
  return { url: svgDataUrl(svg), alt: motif.alt }
}
