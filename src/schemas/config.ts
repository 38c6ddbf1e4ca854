import * as z from 'zod'
import { HttpUrl, Uri, objectFor, type Strictness } from './common.js'

/** The keys of `theme.colors.default` / `.dark` that must be present. */
export const REQUIRED_COLOR_KEYS = [
  'background',
  'foreground',
  'card',
  'card-foreground',
  'primary',
  'primary-foreground',
  'secondary',
  'secondary-foreground',
  'muted',
  'muted-foreground',
  'accent',
  'accent-foreground',
  'destructive',
  'destructive-foreground',
  'border',
  'input',
] as const

/** The keys of a colour set that may be present. */
export const OPTIONAL_COLOR_KEYS = ['card-border', 'chart-1', 'chart-2', 'chart-3', 'chart-4', 'chart-5'] as const

/** Pattern of a palette token name, for example `--brand-blue`. */
export const PALETTE_TOKEN_NAME = /^--[a-z][a-z0-9-]*$/
/** Pattern of a palette token value: `#rgb`, `#rrggbb` or `#rrggbbaa`. */
export const HEX_COLOR = /^#(?:[0-9a-fA-F]{3}|[0-9a-fA-F]{6}|[0-9a-fA-F]{8})$/
/** Pattern of a font token name, for example `--font-heading`. */
export const FONT_TOKEN_NAME = /^--font-[a-z][a-z0-9-]*$/

export const LAYOUTS = ['REGULAR', 'CARD', 'SLIDES', 'SLIDESHOW', 'STACKED'] as const
export const SLIDES_DISPLAYS = ['CARDS', 'FULLSCREEN'] as const
export const STACKED_ORIENTATIONS = ['VERTICAL', 'HORIZONTAL'] as const
export const CARDS_CORNERS = ['ROUND', 'SQUARE'] as const
export const WIDTHS = ['FULL', 'MEDIUM', 'COMPACT'] as const
export const MOBILE_CANVASES = ['LEGACY', 'COMPACT'] as const

function colorSet(strictness: Strictness) {
  const shape: Record<string, z.ZodType<string | undefined>> = {}
  for (const key of REQUIRED_COLOR_KEYS) shape[key] = z.string()
  for (const key of OPTIONAL_COLOR_KEYS) shape[key] = z.string().optional()
  return objectFor(strictness, shape) as unknown as z.ZodType<ColorSet>
}

/** A colour set of the theme: the required keys, and optionally the chart ones. */
export type ColorSet = { [K in (typeof REQUIRED_COLOR_KEYS)[number]]: string } & {
  [K in (typeof OPTIONAL_COLOR_KEYS)[number]]?: string
}

function theme(strictness: Strictness) {
  return objectFor(strictness, {
    fontFamily: z.string(),
    headingFontFamily: z.string().optional(),
    radius: z.string(),
    colors: objectFor(strictness, {
      default: colorSet(strictness),
      dark: colorSet(strictness).optional(),
    }),
  })
}

function tokens(strictness: Strictness) {
  const palette = z.array(
    objectFor(strictness, {
      name: z.string().regex(PALETTE_TOKEN_NAME),
      value: z.string().regex(HEX_COLOR),
    }),
  )
  const fonts = z.array(
    objectFor(strictness, {
      name: z.string().regex(FONT_TOKEN_NAME),
      family: z.string().min(1),
      // The spec says `uri`; the emulator accepts http(s) URLs only (a font must be fetchable).
      url: strictness === 'request' ? HttpUrl.optional() : Uri.optional(),
    }),
  )
  return objectFor(strictness, {
    // Both arrays default to empty: a request may omit them, a response has them.
    palette: strictness === 'request' ? palette.default([]) : palette.optional(),
    fonts: strictness === 'request' ? fonts.default([]) : fonts.optional(),
  })
}

function projectConfig(strictness: Strictness) {
  return objectFor(strictness, {
    layout: z.enum(LAYOUTS).optional(),
    slidesDisplay: z.enum(SLIDES_DISPLAYS).optional(),
    stackedOrientation: z.enum(STACKED_ORIENTATIONS).optional(),
    cardsSlidesPerView: z.number().min(0.5).max(2).optional(),
    cardsBackgroundColor: z.string().optional(),
    cardsBackgroundImage: z.string().optional(),
    cardsCorners: z.enum(CARDS_CORNERS).optional(),
    showBrandLogo: z.boolean().optional(),
    width: z.enum(WIDTHS).optional(),
    mobileCanvas: z.enum(MOBILE_CANVASES).optional(),
    theme: theme(strictness).optional(),
    tokens: tokens(strictness).optional(),
  })
}

/**
 * Project configuration (`project.config.json`) as a request carries it:
 * every key optional, unknown keys at any level rejected, token arrays
 * defaulting to empty.
 */
export const ProjectConfig = projectConfig('request')
export type ProjectConfig = z.infer<typeof ProjectConfig>

/** Project configuration as a response is checked: unknown keys tolerated. */
export const ProjectConfigResponse = projectConfig('response')

/** The top-level keys of a project configuration, in spec order. */
export const PROJECT_CONFIG_KEYS = Object.keys(ProjectConfig.shape) as Array<keyof ProjectConfig>

// The request variants inside ProjectConfig, not built a second time.
export const Theme = ProjectConfig.shape.theme.unwrap()
export type Theme = z.infer<typeof Theme>
export const Tokens = ProjectConfig.shape.tokens.unwrap()
export type Tokens = z.infer<typeof Tokens>
