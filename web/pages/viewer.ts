/**
 * The slide viewer shared by the editor and the published sites: one slide
 * at a time scaled to the window, a strip of thumbnails (or an overview
 * grid), a counter and keyboard navigation (the script is
 * `client/viewer.ts`). The server renders every part; a live page receives
 * the same parts again as a `DeckView` over server-sent events.
 */
import type { EditingState, SlideRecord } from '../../src/store/records.js'
import type { ProjectConfig, SlideFiles } from '../../src/schemas/index.js'
import { SLIDE_BASE_CSS } from '../../src/content/slide-styles.js'
import { RENDER_VERSION } from '../generated/render-scripts.js'
import { FRAME_KEY_PARAM, RENDER_ASSET_PATH, RENDER_ASSETS } from '../render/limits.js'
import { slideRenderData, type SlideRenderData } from '../render/slide-render.js'
import type { SlideTranspiler } from '../render/transpile.js'
import type { SlideCheckResult } from '../../src/model/slide-checker.js'
import { checkBadge, checkSentence } from './check-badge.js'
import { escapeHtml, htmlDocument, renderSlide, type ImagePolicy } from './html.js'
import { type DeckTheme, deckTheme, themeCss } from './theme.js'

/** One slide as the viewer shows it: in the stage (`frame`) and in the strip (`thumb`). */
export interface SlideView {
  id: string
  name: string
  /** `<article class="slide-frame" data-slide-id="…">`: the slide and its editing indicator. */
  frame: string
  /** The thumbnail button. */
  thumb: string
  /** What the slide renderer needs to run the slide's component (`render/slide-render.ts`). */
  render: SlideRenderData
}

/** Everything a viewer page shows; the live editor receives it as JSON on every change. */
export interface DeckView {
  /** The document title. */
  title: string
  /** The presentation's name. */
  name: string
  /** Status chips beside the name (HTML). */
  meta: string
  /** A banner under the top bar, or '' (HTML). */
  notice: string
  /** What the stage shows when there are no slides (HTML). */
  empty: string
  /** The theme as CSS: custom properties and accent classes. */
  css: string
  /** The stylesheet of each slide's display frame: the base stylesheet of generated slides and the theme's custom properties. */
  frameCss: string
  /** The version of the renderer's assets (their addresses' `?v=`). */
  renderVersion: string
  /** A page in an opaque origin (a published site): the emulator's frame key, for its renderer frames' addresses (`?k=`). */
  frameKey?: string
  slides: SlideView[]
}

export interface DeckSlide {
  id: string
  name: string
  files: SlideFiles
  editing?: EditingState | null
  /** The slide's last check result for its current files and config (the editor's badges); none on a site. */
  check?: SlideCheckResult
}

/** The editing indicator on a slide: who is editing and, when given, what they were asked. */
export function editingOverlay(editing: EditingState): string {
  const who = editing.agentName?.trim() || 'An agent'
  const what = editing.editPrompt?.trim() ? `<div class="prompt">${escapeHtml(editing.editPrompt)}</div>` : ''
  return `<div class="editing" role="status" aria-live="polite" data-testid="editing-indicator"><div class="editing-card"><span class="spinner" aria-hidden="true"></span><div><strong>${escapeHtml(who)} is editing this slide</strong>${what}</div></div></div>`
}

/**
 * The stylesheet of a deck's display frames and pictures: the base
 * stylesheet of generated slides and the project's theme and tokens as
 * custom properties. The editor, the sites and the slide checker
 * (`web/check/`) all style a rendered slide with it.
 */
export function deckFrameCss(config: ProjectConfig): string {
  return frameCssOf(deckTheme(config))
}

function frameCssOf(theme: DeckTheme): string {
  return `${SLIDE_BASE_CSS}\n${themeCss(theme)}`
}

/** The slides and theme CSS of a deck, and what the renderer needs to run each slide's component. */
export function renderDeck(
  config: ProjectConfig,
  slides: readonly DeckSlide[],
  images: ImagePolicy,
  transpiler: SlideTranspiler,
): { css: string; frameCss: string; renderVersion: string; slides: SlideView[] } {
  const theme = deckTheme(config)
  const accents = new Map<string, string>()
  const context = {
    theme,
    images,
    accentClass(color: string) {
      let name = accents.get(color)
      if (name === undefined) {
        name = `accent-${accents.size + 1}`
        accents.set(color, name)
      }
      return name
    },
  }
  const views = slides.map((slide, index): SlideView => {
    const content = renderSlide(slide.files, context)
    const editing = slide.editing ?? null
    const who = editing === null ? '' : editing.agentName?.trim() || 'An agent'
    const checked = slide.check === undefined ? '' : `. ${checkSentence(slide.check)}`
    const label = `Slide ${index + 1}: ${slide.name}${editing === null ? '' : ` (${who} is editing it)`}${checked}`
    return {
      id: slide.id,
      name: slide.name,
      frame: `<article class="slide-frame" data-slide-id="${escapeHtml(slide.id)}">${content}${editing === null ? '' : editingOverlay(editing)}</article>`,
      thumb: `<button type="button" class="thumb${editing === null ? '' : ' is-editing'}" data-slide-id="${escapeHtml(slide.id)}" aria-label="${escapeHtml(label)}"><span class="thumb-slide" aria-hidden="true">${content}</span><span class="thumb-caption"><span class="thumb-number">${index + 1}</span><span class="thumb-name">${escapeHtml(slide.name)}</span>${checkBadge(slide.check)}</span>${
        editing === null
          ? ''
          : `<span class="thumb-editing" data-testid="thumb-editing"><span class="spinner" aria-hidden="true"></span>${escapeHtml(who)}</span>`
      }</button>`,
      render: slideRenderData(slide.files, transpiler, images),
    }
  })
  const accentCss = [...accents].map(([color, name]) => `.${name}{--slide-title:${color}}`).join('')
  return {
    css: `${themeCss(theme)}${accentCss}`,
    frameCss: frameCssOf(theme),
    renderVersion: RENDER_VERSION,
    slides: views,
  }
}

/** A slide record as a deck slide. */
export function deckSlide(slide: SlideRecord): DeckSlide {
  return { id: slide.id, name: slide.name, files: slide.files, editing: slide.editing }
}

const BRAND_ICON =
  '<svg viewBox="0 0 24 24" aria-hidden="true"><rect x="2" y="4" width="20" height="13" rx="2.5" fill="none" stroke="currentColor" stroke-width="1.8"/><path d="M12 17v3m-4 0h8" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/></svg>'

export interface ViewerOptions {
  mode: 'editor' | 'site'
  /** The live updates' event stream (the editor). */
  eventsUrl?: string
}

/** The body of a viewer page. */
export function viewerBody(view: DeckView, options: ViewerOptions): string {
  const first = view.slides[0]
  const site = options.mode === 'site'
  const tools = [
    options.eventsUrl === undefined ? '' : '<span id="live" class="live" role="status" title="Live updates">Connecting…</span>',
    site
      ? ''
      : '<div class="segmented" role="group" aria-label="Slide view" title="Each slide as its component (slide.tsx) renders it, or as the emulator renders its content (slide.content.json)"><button id="view-component" class="btn" type="button" data-view="component" aria-pressed="true">Component</button><button id="view-content" class="btn" type="button" data-view="content" aria-pressed="false">Content</button></div>',
    '<button id="overview-toggle" class="btn" type="button" aria-pressed="false" aria-keyshortcuts="O" title="Overview of all slides (O)">Overview</button>',
    site
      ? '<button id="present" class="btn btn-primary" type="button" aria-keyshortcuts="F" title="Present full screen (F)">Present</button>'
      : '',
  ].join('')
  // The renderer frame first: it starts loading (and warming its workers) while the rest of the page parses.
  return `<iframe id="slide-renderer" class="renderer-frame" sandbox="allow-scripts" src="${RENDER_ASSET_PATH}${RENDER_ASSETS.rendererDocument}?${escapeHtml(renderQuery(view).toString())}" title="Slide renderer" aria-hidden="true" tabindex="-1" referrerpolicy="no-referrer" inert></iframe>
<div class="viewer viewer-${options.mode}">
<header class="topbar">
${site ? '' : `<span class="brand">${BRAND_ICON}Editor</span>`}
<div class="deck-heading"><h1 id="deck-name" data-testid="project-name">${escapeHtml(view.name)}</h1><div id="deck-meta" class="chips">${view.meta}</div></div>
<div class="tools">${tools}</div>
</header>
<div id="notice" class="notice-area">${view.notice}</div>
<nav id="thumbs" class="filmstrip" aria-label="Slides">${view.slides.map((slide) => slide.thumb).join('')}</nav>
${site ? '' : '<aside id="controls-panel" class="controls-panel" aria-label="Slide controls" hidden></aside>'}
<main id="stage" class="stage" aria-label="Current slide">
<div class="stage-fit"><div id="stage-slides" class="stage-slides">${view.slides.map((slide) => slide.frame).join('\n')}</div></div>
<div id="stage-empty" class="stage-empty"${view.slides.length > 0 ? ' hidden' : ''}>${view.empty}</div>
</main>
<footer class="navbar">
<button id="prev" class="btn" type="button" aria-label="Previous slide" title="Previous slide (←)">‹ Prev</button>
<span id="counter" class="counter" aria-live="polite">${view.slides.length === 0 ? '0 / 0' : `1 / ${view.slides.length}`}</span>
<button id="next" class="btn" type="button" aria-label="Next slide" title="Next slide (→)">Next ›</button>
<span id="slide-name" class="slide-name">${first === undefined ? '' : escapeHtml(first.name)}</span>
<span class="keys-hint"><kbd>←</kbd> <kbd>→</kbd> <kbd>Home</kbd> <kbd>End</kbd> · <kbd>O</kbd> overview${site ? ' · <kbd>F</kbd> present' : ''}</span>
</footer>
<div class="progress" aria-hidden="true"><span id="progress-bar"></span></div>
</div>
<script type="application/json" id="deck-render">${renderDataJson(view)}</script>`
}

/** The query of a renderer document's address: the version (`v`), and the frame key (`k`) of a page in an opaque origin. */
export function renderQuery(deck: { renderVersion: string; frameKey?: string }): URLSearchParams {
  const query = new URLSearchParams({ v: deck.renderVersion })
  if (deck.frameKey !== undefined) query.set(FRAME_KEY_PARAM, deck.frameKey)
  return query
}

/**
 * What the page's script needs to run the slides' components, as a JSON
 * data block (never executed, so the CSP does not apply; `<` is escaped so
 * no text can close the element). Live updates carry the same in `DeckView`.
 */
export function renderDataJson(view: DeckView): string {
  const data = {
    frameCss: view.frameCss,
    renderVersion: view.renderVersion,
    ...(view.frameKey === undefined ? {} : { frameKey: view.frameKey }),
    slides: view.slides.map((slide) => ({ id: slide.id, render: slide.render })),
  }
  return JSON.stringify(data).replace(/</g, '\\u003c')
}

/** A complete viewer page; the theme CSS is its one inline style (allowed by hash). */
export function viewerDocument(view: DeckView, options: ViewerOptions): string {
  return htmlDocument({
    title: view.title,
    body: viewerBody(view, options),
    bodyClass: 'viewer-page',
    bodyData: { mode: options.mode, ...(options.eventsUrl === undefined ? {} : { events: options.eventsUrl }) },
    style: view.css,
    scripts: ['viewer.js'],
  })
}

/** A small page with one message (404s). */
export function messageDocument(title: string, status: string, heading: string, paragraphs: string[]): string {
  return htmlDocument({
    title,
    bodyClass: 'plain',
    body: `<main class="message-card"><div class="status">${escapeHtml(status)}</div><h1>${escapeHtml(heading)}</h1>${paragraphs.map((p) => `<p>${p}</p>`).join('')}</main>`,
  })
}
