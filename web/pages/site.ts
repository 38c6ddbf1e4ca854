/**
 * A published site at `publishedUrl`: the snapshot taken at publish time
 * (not the project as it is now) in the viewer, with a full-screen
 * presenter mode.
 */
import type { SlideTranspiler } from '../render/transpile.js'
import type { PublicationRecord } from '../../src/store/records.js'
import { escapeHtml, type ImagePolicy } from './html.js'
import { messageDocument, renderDeck, viewerDocument, type DeckView } from './viewer.js'

/** `2026-01-01T09:30:00.000Z` → `2026-01-01 09:30 UTC`. */
function formatTime(iso: string): string {
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`
}

/** The view of a publication. */
export function siteView(publication: PublicationRecord, images: ImagePolicy, transpiler: SlideTranspiler): DeckView {
  const deck = renderDeck(publication.config, publication.slides, images, transpiler)
  return {
    title: publication.name,
    name: publication.name,
    meta: `<span class="chip">Published ${escapeHtml(formatTime(publication.publishedAt))}</span>`,
    notice: '',
    empty: '<div class="empty-card"><h2>This presentation has no slides.</h2></div>',
    css: deck.css,
    frameCss: deck.frameCss,
    renderVersion: deck.renderVersion,
    slides: deck.slides,
  }
}

/** The published site's page. */
export function sitePage(view: DeckView): string {
  return viewerDocument(view, { mode: 'site' })
}

/** The 404 page of a site address where nothing is published (never was, or unpublished since). */
export function siteNotFoundPage(address: string): string {
  return messageDocument('Nothing published here', '404 · Not found', 'Nothing is published here', [
    `Nothing is published at <code>${escapeHtml(address)}</code>.`,
    'The presentation may have been unpublished, or never published at this address. Publishing it again (<code>POST /v1/projects/{slug}/publish</code>) brings the site back.',
  ])
}

/** The 404 page of an editor address whose project does not exist. */
export function editorNotFoundPage(slug: string): string {
  return messageDocument('No such project', '404 · Not found', 'No such project', [
    `No project with the slug <code>${escapeHtml(slug)}</code> exists in this emulator.`,
    'Check the slug in the <code>editorUrl</code> the API returned. A project created before a reset or a state import may be gone.',
  ])
}
