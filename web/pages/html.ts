/**
 * HTML for the pages: the document shell and a slide rendered from its
 * `slide.content.json` and `slide.controls.json`. Every text is escaped;
 * no markup, style attribute or script comes from a slide.
 */
import { jsonTextDepthExceeded, MAX_JSON_DEPTH } from '../../src/core/json-depth.js'
import { safeParse } from '../../src/core/validation.js'
import * as z from 'zod'
import {
  CONTENT_BLOCK_TYPES,
  ContentBlock,
  SLIDE_ALIGNMENTS,
  SlideControl,
  SlideControls,
  type SlideFiles,
} from '../../src/schemas/index.js'
import { readImageUrl } from '../render/image-urls.js'
import { assetUrl, type AssetName } from './paths.js'
import type { DeckTheme } from './theme.js'

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;')
}

export interface DocumentOptions {
  title: string
  body: string
  /** Class of `<body>`. */
  bodyClass?: string
  /** `data-*` attributes of `<body>` (names without the prefix). */
  bodyData?: Record<string, string>
  /** An inline style element's text; its hash goes into the page's CSP. */
  style?: string
  /** Same-origin scripts (asset names), loaded with `defer`. */
  scripts?: AssetName[]
}

/** A complete HTML document: the shared stylesheet, an optional hashed inline style, deferred same-origin scripts. */
export function htmlDocument(options: DocumentOptions): string {
  const data = Object.entries(options.bodyData ?? {})
    .map(([name, value]) => ` data-${name}="${escapeHtml(value)}"`)
    .join('')
  const bodyClass = options.bodyClass === undefined ? '' : ` class="${escapeHtml(options.bodyClass)}"`
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="color-scheme" content="light">
<title>${escapeHtml(options.title)}</title>
<link rel="icon" href="${assetUrl('favicon.svg')}" type="image/svg+xml">
<link rel="stylesheet" href="${assetUrl('pages.css')}">
${options.style === undefined ? '' : `<style>${options.style}</style>\n`}${(options.scripts ?? []).map((name) => `<script src="${assetUrl(name)}" defer></script>\n`).join('')}</head>
<body${bodyClass}${data}>
${options.body}
</body>
</html>
`
}

/** Where a page may load images from. */
export interface ImagePolicy {
  /** Load images of other origins (`allowRemoteImages`). */
  allowRemote: boolean
  /** The emulator's own origin: an absolute URL on it is not remote. */
  origin: string
}

/** What a slide is rendered with. */
export interface SlideContext {
  theme: DeckTheme
  images: ImagePolicy
  /** The class for a title colour other than the theme's (`accent-N`), so it can be styled without a style attribute. */
  accentClass(color: string): string
}

/** Past these, a slide shows a note instead of more (a page stays small whatever a file holds). */
const MAX_BLOCKS = 60
const MAX_ITEMS = 40
const MAX_TEXT = 4_000
const MAX_RAW = 20_000

/** What the renderer reads of `slide.content.json`: leniently, each block is checked on its own. */
const ContentFile = z
  .object({ title: z.unknown().optional(), blocks: z.unknown().optional() })
  .refine((content) => content.title !== undefined || content.blocks !== undefined)

type Layout = 'title' | 'content' | 'columns' | 'quote' | 'stats' | 'media' | 'image' | 'raw'

/** A block as read from the file: one of the conventions, a lenient text, or a notice saying what is wrong. */
type ReadBlock = { kind: 'block'; block: ContentBlock } | { kind: 'notice'; text: string }

function clip(text: string, max = MAX_TEXT): string {
  return text.length > max ? `${text.slice(0, max)}…` : text
}

function t(text: string): string {
  return escapeHtml(clip(text))
}

function readBlock(value: unknown, index: number): ReadBlock {
  const parsed = safeParse(ContentBlock, value)
  if (parsed.success) return { kind: 'block', block: parsed.data }
  const b = typeof value === 'object' && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined
  const type = typeof b?.type === 'string' ? b.type : undefined
  const known = (CONTENT_BLOCK_TYPES as readonly string[]).includes(type ?? '')
  // An unknown type that carries a text is shown as a paragraph, as a real renderer might.
  if (type !== undefined && !known && typeof b?.text === 'string') return { kind: 'block', block: { type: 'text', text: b.text } }
  if (type === undefined) return { kind: 'notice', text: `Block ${index + 1} has no "type", so it is not shown.` }
  if (!known) return { kind: 'notice', text: `Block type "${clip(type, 60)}" is not rendered by the emulator.` }
  const issue = parsed.error.issues[0]
  const where = issue?.path.length ? `${issue.path.join('.')}: ` : ''
  return { kind: 'notice', text: `The ${type} block ${index + 1} is not shown: ${where}${issue?.message ?? 'invalid'}.` }
}

const API_OR_CONTROL = "Not loaded: a slide's images never come from the emulator's API or control plane."

/**
 * Whether an image URL may load on the page, and if not, why: judged on what
 * the browser's URL parser makes of it (`readImageUrl`), so `/\host/x`,
 * `\\host/x` and `/<tab>/host/x` are remote images, as the browser would
 * load them, not paths of the emulator's own.
 */
export function imageSource(url: string, policy: ImagePolicy): { load: true } | { load: false; reason: string; host?: string } {
  const read = readImageUrl(url, policy.origin)
  switch (read.kind) {
    case 'data':
      // A data: URL shows only as one of the image types.
      return /^data:image\/(?:png|jpe?g|gif|webp|avif|svg\+xml)[;,]/i.test(url.trim())
        ? { load: true }
        : { load: false, reason: 'data: URLs are loaded as images only with an image type (data:image/png, …).' }
    case 'own':
      return { load: true }
    case 'remote':
      if (policy.allowRemote) return { load: true }
      return {
        load: false,
        reason: 'Remote image not loaded: the emulator is offline (start it with --allow-remote-images to load it).',
        host: read.host,
      }
    case 'refused':
      switch (read.why) {
        case 'api':
          return { load: false, reason: API_OR_CONTROL }
        case 'folder':
          return { load: false, reason: 'Not loaded: a path of the emulator’s own that ends in / names no image.' }
        case 'scheme':
          return { load: false, reason: `${read.scheme ?? 'Its'}: URLs are not loaded as images.` }
        case 'credentials':
          return { load: false, reason: 'Not loaded: an image URL with a user name or password.' }
        default:
          return { load: false, reason: 'The image URL is not absolute; use an http(s) URL, a path starting with / or a data:image URL.' }
      }
  }
}

const IMAGE_ICON =
  '<svg class="placeholder-icon" viewBox="0 0 24 24" aria-hidden="true"><rect x="3" y="4" width="18" height="16" rx="2" fill="none" stroke="currentColor" stroke-width="1.6"/><circle cx="9" cy="10" r="1.8" fill="currentColor"/><path d="M4.5 18l5-5.5 3.5 3.5 2.5-2.5 4 4.5" fill="none" stroke="currentColor" stroke-width="1.6" stroke-linejoin="round"/></svg>'

function renderImage(block: { url: string; alt: string }, images: ImagePolicy): string {
  const source = imageSource(block.url, images)
  if (source.load) {
    return `<figure class="block-image"><img src="${escapeHtml(block.url.trim())}" alt="${t(block.alt)}" loading="lazy" decoding="async" referrerpolicy="no-referrer"></figure>`
  }
  const alt = block.alt.trim() === '' ? 'No alt text' : block.alt
  return `<figure class="block-image image-placeholder" role="img" aria-label="${t(`Image: ${alt}`)}" data-testid="image-placeholder">${IMAGE_ICON}<figcaption><span class="placeholder-alt">${t(alt)}</span><span class="placeholder-reason">${t(source.reason)}</span>${source.host === undefined ? '' : `<span class="placeholder-host">${t(source.host)}</span>`}</figcaption></figure>`
}

function renderBlock(read: ReadBlock, images: ImagePolicy): string {
  if (read.kind === 'notice') return `<p class="block-notice">${t(read.text)}</p>`
  const block = read.block
  switch (block.type) {
    case 'heading':
      return `<h2>${t(block.text)}</h2>`
    case 'text':
      return `<p>${t(block.text)}</p>`
    case 'bullets': {
      const more = block.items.length > MAX_ITEMS ? `<li class="more">${block.items.length - MAX_ITEMS} more</li>` : ''
      return `<ul>${block.items
        .slice(0, MAX_ITEMS)
        .map((item) => `<li>${t(item)}</li>`)
        .join('')}${more}</ul>`
    }
    case 'quote':
      return `<blockquote><p>${t(block.text)}</p>${block.author === undefined || block.author === '' ? '' : `<cite>${t(block.author)}</cite>`}</blockquote>`
    case 'stat':
      return `<figure class="stat"><strong>${t(String(block.value))}</strong><figcaption>${t(block.label)}</figcaption></figure>`
    case 'image':
      return renderImage(block, images)
  }
}

const isType = (read: ReadBlock, type: ContentBlock['type']) => read.kind === 'block' && read.block.type === type

function chooseLayout(blocks: ReadBlock[], align: string): Layout {
  const shown = blocks.filter((read) => read.kind === 'block')
  if (shown.length === 0) return blocks.length === 0 ? 'title' : 'content'
  if (shown.every((read) => isType(read, 'image'))) return 'image'
  if (shown.some((read) => isType(read, 'image'))) return 'media'
  if (shown.length === 1 && isType(shown[0]!, 'quote')) return 'quote'
  if (shown.every((read) => isType(read, 'stat'))) return 'stats'
  if (align === 'center' && shown.length <= 2 && shown.every((read) => isType(read, 'text'))) return 'title'
  const headings = shown.filter((read) => isType(read, 'heading')).length
  if (headings >= 2 && headings <= 3 && isType(shown[0]!, 'heading')) return 'columns'
  return 'content'
}

/** Consecutive stat blocks share one row. */
function flow(blocks: ReadBlock[], images: ImagePolicy): string {
  let html = ''
  let stats: string[] = []
  const flush = () => {
    if (stats.length > 0) html += `<div class="stats">${stats.join('')}</div>`
    stats = []
  }
  for (const read of blocks) {
    if (isType(read, 'stat')) {
      stats.push(renderBlock(read, images))
      continue
    }
    flush()
    html += renderBlock(read, images)
  }
  flush()
  return html
}

function body(layout: Layout, blocks: ReadBlock[], images: ImagePolicy): string {
  if (layout === 'columns') {
    const columns: ReadBlock[][] = []
    for (const read of blocks) {
      if (isType(read, 'heading') || columns.length === 0) columns.push([])
      columns[columns.length - 1]!.push(read)
    }
    return `<div class="columns">${columns.map((column) => `<section class="column">${flow(column, images)}</section>`).join('')}</div>`
  }
  if (layout === 'media') {
    const first = blocks.findIndex((read) => isType(read, 'image'))
    const rest = blocks.filter((_, index) => index !== first)
    return `<div class="media"><div class="media-text">${flow(rest, images)}</div><div class="media-figure">${renderBlock(blocks[first]!, images)}</div></div>`
  }
  return flow(blocks, images)
}

/** The default of a control of `slide.controls.json`, if the file follows the convention. */
function controlDefault(controlsFile: string, id: string): unknown {
  let value: unknown
  try {
    value = JSON.parse(controlsFile)
  } catch {
    return undefined
  }
  const parsed = SlideControls.safeParse(value)
  if (!parsed.success) return undefined
  for (const control of parsed.data.controls) {
    const c = SlideControl.safeParse(control)
    if (c.success && c.data.id === id) return c.data.default
  }
  return undefined
}

/**
 * A slide as HTML: `<div class="slide layout-… align-…">` with the title
 * (`<h1>`) and the blocks. The layout follows the content (a title slide, a
 * quote, a row of stats, columns under headings, text beside an image); the
 * `align` and `accent` controls' defaults are applied. Content that does not
 * follow the conventions is shown as its file text.
 */
export function renderSlide(files: SlideFiles, context: SlideContext): string {
  // Writes refuse deeper files; this guard keeps any page from overflowing its stack all the same.
  if (jsonTextDepthExceeded(files['slide.content.json']) !== -1) {
    return `<div class="slide"><p class="notice">This slide's content is nested deeper than ${MAX_JSON_DEPTH} levels and is not shown.</p></div>`
  }
  const alignValue = controlDefault(files['slide.controls.json'], 'align')
  const align = SLIDE_ALIGNMENTS.find((a) => a === alignValue) ?? 'left'
  const accentValue = controlDefault(files['slide.controls.json'], 'accent')
  const accent = typeof accentValue === 'string' ? context.theme.textColor(accentValue) : undefined
  const accentClass = accent === undefined || accent === context.theme.title ? '' : ` ${context.accentClass(accent)}`

  const text = files['slide.content.json']
  let content: unknown
  try {
    content = JSON.parse(text)
  } catch {
    content = undefined
  }
  const parsed = ContentFile.safeParse(content)
  if (!parsed.success) {
    // Not the {title, blocks} convention: show the file as it is (never re-serialized, so any depth is safe).
    return `<div class="slide layout-raw align-left"><pre class="raw">${escapeHtml(clip(text, MAX_RAW))}</pre></div>`
  }
  const rawBlocks = Array.isArray(parsed.data.blocks) ? parsed.data.blocks : []
  const blocks = rawBlocks.slice(0, MAX_BLOCKS).map(readBlock)
  if (rawBlocks.length > MAX_BLOCKS) blocks.push({ kind: 'notice', text: `${rawBlocks.length - MAX_BLOCKS} more blocks are not shown.` })
  if (parsed.data.blocks !== undefined && !Array.isArray(parsed.data.blocks))
    blocks.push({ kind: 'notice', text: '"blocks" is not an array, so no block is shown.' })
  const titleText = typeof parsed.data.title === 'string' ? parsed.data.title.trim() : ''
  const layout = chooseLayout(blocks, align)
  const title = titleText === '' ? '' : `<h1>${t(titleText)}</h1>`
  const inner = body(layout, blocks, context.images)
  const rest = inner === '' ? (title === '' ? '<p class="slide-empty">Empty slide</p>' : '') : `<div class="slide-body">${inner}</div>`
  return `<div class="slide layout-${layout} align-${align}${accentClass}">${title}${rest}</div>`
}
