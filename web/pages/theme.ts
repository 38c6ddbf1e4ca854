/**
 * A project's theme as the pages apply it: the theme's colours, radius and
 * fonts and the design tokens as CSS custom properties, plus the derived
 * colours the slides use for text, each checked against WCAG 2 AA
 * contrast and made readable when it fails.
 */
import { colord, extend, type Colord } from 'colord'
import a11yPlugin from 'colord/plugins/a11y'
import mixPlugin from 'colord/plugins/mix'
import namesPlugin from 'colord/plugins/names'
import type { ProjectConfig } from '../../src/schemas/index.js'

extend([a11yPlugin, mixPlugin, namesPlugin])

/** WCAG 2 AA for normal text; the pages hold every text colour to it (titles included, since they shrink on a phone). */
export const MIN_TEXT_CONTRAST = 4.5

const DEFAULTS = {
  background: '#ffffff',
  foreground: '#0f172a',
  primary: '#1d4ed8',
  muted: '#f1f5f9',
  'muted-foreground': '#475569',
  card: '#f8fafc',
  'card-foreground': '#0f172a',
  border: '#e2e8f0',
} as const

const FALLBACK_FONTS =
  'ui-sans-serif, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", "Liberation Sans", sans-serif'

/** A CSS colour parsed by colord, or undefined when it is not one (a `var()`, garbage). */
function parse(value: string | undefined): Colord | undefined {
  if (value === undefined) return undefined
  const color = colord(value.trim())
  return color.isValid() ? color : undefined
}

/** `color` drawn over an opaque `background`: what the eye sees, for contrast. */
function composite(color: Colord, background: Colord): Colord {
  const a = color.alpha()
  if (a >= 1) return color
  const fg = color.toRgb()
  const bg = background.toRgb()
  const mix = (f: number, b: number) => Math.round(f * a + b * (1 - a))
  return colord({ r: mix(fg.r, bg.r), g: mix(fg.g, bg.g), b: mix(fg.b, bg.b), a: 1 })
}

/** The WCAG 2 contrast ratio of two CSS colours (`undefined` if either is not a colour). */
export function contrastRatio(foreground: string, background: string): number | undefined {
  const bg = parse(background)
  const fg = parse(foreground)
  if (bg === undefined || fg === undefined) return undefined
  const opaque = composite(bg, colord('#ffffff'))
  return composite(fg, opaque).contrast(opaque)
}

/**
 * `foreground` when it reaches `min` contrast against `background`;
 * otherwise the same hue mixed towards black or white (whichever the
 * background allows) in 5% steps until it does. Black or white always
 * reaches 4.5:1 against an opaque background, so the result is readable.
 * An unparsable foreground falls back to `fallback`, checked the same way.
 */
export function readableColor(
  foreground: string | undefined,
  background: string,
  fallback: string = DEFAULTS.foreground,
  min = MIN_TEXT_CONTRAST,
): string {
  const bg = composite(parse(background) ?? colord(DEFAULTS.background), colord('#ffffff'))
  const fg = composite(parse(foreground) ?? parse(fallback) ?? colord(DEFAULTS.foreground), bg)
  if (fg.contrast(bg) >= min) return fg.toHex()
  const target = colord('#000000').contrast(bg) >= colord('#ffffff').contrast(bg) ? '#000000' : '#ffffff'
  for (let step = 1; step <= 20; step++) {
    const mixed = fg.mix(target, step / 20)
    if (mixed.contrast(bg) >= min) return mixed.toHex()
  }
  return target
}

/** A theme colour as a safe CSS value (hex), or undefined. */
function hex(value: string | undefined): string | undefined {
  const color = parse(value)
  return color === undefined ? undefined : color.toHex()
}

/** `1rem`, `0.5rem`, `8px`, `0`: anything else falls back. */
function radius(value: string | undefined): string {
  return value !== undefined && /^\d{1,3}(?:\.\d{1,3})?(?:rem|em|px|%)?$/.test(value.trim()) ? value.trim() : '0.75rem'
}

/** A font-family list: each family kept to letters, digits, spaces, `.`, `_` and `-`, quoted, then the system fonts. */
export function fontStack(families: string | undefined): string {
  const named = (families ?? '')
    .split(',')
    .map((family) =>
      family
        .replace(/[^\p{L}\p{N} ._-]/gu, '')
        .replace(/\s+/g, ' ')
        .trim(),
    )
    .filter((family) => family !== '' && family.length <= 80)
    .slice(0, 6)
    .map((family) => `"${family}"`)
  return [...named, FALLBACK_FONTS].join(', ')
}

/** The colours a deck's slides use, resolved and readable. */
export interface DeckTheme {
  /** Custom properties for `:root`, by name (`--primary`, `--slide-fg`, …). */
  readonly vars: ReadonlyMap<string, string>
  /** The slide background, opaque hex. */
  readonly background: string
  /** The title colour: the primary colour, made readable. */
  readonly title: string
  /**
   * A text colour given as a CSS colour or a `var(--name)` of the theme or
   * the tokens, made readable on the slide background; undefined when it
   * names nothing.
   */
  textColor(value: string): string | undefined
}

/** The theme of a project configuration, with AA-readable text colours. */
export function deckTheme(config: ProjectConfig): DeckTheme {
  const colors = (config.theme?.colors.default ?? {}) as Record<string, string | undefined>
  const raw = new Map<string, string>()
  for (const [name, value] of Object.entries(colors)) {
    const color = hex(value)
    if (color !== undefined && /^[a-z][a-z0-9-]*$/.test(name)) raw.set(`--${name}`, color)
  }
  for (const token of config.tokens?.palette ?? []) {
    const color = hex(token.value)
    if (color !== undefined) raw.set(token.name, color)
  }
  const pick = (name: keyof typeof DEFAULTS) => raw.get(`--${name}`) ?? DEFAULTS[name]
  const background = readableBackground(pick('background'))
  const card = hex(pick('card')) ?? DEFAULTS.card
  const title = readableColor(pick('primary'), background, DEFAULTS.primary)
  const vars = new Map<string, string>(raw)
  vars.set('--slide-bg', background)
  vars.set('--slide-fg', readableColor(pick('foreground'), background))
  vars.set('--slide-title', title)
  vars.set('--slide-muted', readableColor(pick('muted-foreground'), background, DEFAULTS['muted-foreground']))
  vars.set('--slide-decor', hex(pick('primary')) ?? DEFAULTS.primary)
  vars.set('--slide-card', card)
  vars.set('--slide-card-fg', readableColor(pick('card-foreground'), card))
  vars.set('--slide-card-title', readableColor(pick('primary'), card, DEFAULTS.primary))
  vars.set('--slide-border', hex(pick('border')) ?? DEFAULTS.border)
  vars.set('--slide-radius', radius(config.theme?.radius))
  vars.set('--slide-font', fontStack(config.theme?.fontFamily))
  vars.set('--slide-heading-font', fontStack(config.theme?.headingFontFamily ?? config.theme?.fontFamily))
  for (const token of config.tokens?.fonts ?? []) vars.set(token.name, fontStack(token.family))
  return {
    vars,
    background,
    title,
    textColor(value) {
      const reference = /^var\(\s*(--[a-z][a-z0-9-]*)\s*\)$/.exec(value.trim())
      const resolved = reference === null ? hex(value) : raw.get(reference[1]!)
      return resolved === undefined ? undefined : readableColor(resolved, background)
    },
  }
}

/** A background is used as given when it is a colour; it is made opaque over white. */
function readableBackground(value: string): string {
  const color = parse(value)
  return color === undefined ? DEFAULTS.background : composite(color, colord('#ffffff')).toHex()
}

/** `:root{…}` for a theme's custom properties. Values are hex colours, lengths and quoted font names only. */
export function themeCss(theme: DeckTheme): string {
  return `:root{${[...theme.vars].map(([name, value]) => `${name}:${value}`).join(';')}}`
}
