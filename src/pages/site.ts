import type { PublicationRecord } from '../store/records.js'
import { escapeHtml, htmlDocument, renderSlideContent, themeStyle } from './html.js'

/** The published site: the snapshot taken at publish time, not the project as it is now. */
export function sitePage(publication: PublicationRecord): string {
  const slides = publication.slides
    .map(
      (slide, index) =>
        `<article class="slide-frame" data-slide-id="${escapeHtml(slide.id)}">${renderSlideContent(slide.files)}<footer>${index + 1} / ${publication.slides.length}</footer></article>`,
    )
    .join('\n')
  const body = `<header class="bar"><h1>${escapeHtml(publication.name)}</h1><span class="meta">Published ${escapeHtml(publication.publishedAt)}</span></header>
<main>${slides || '<p class="notice">This presentation has no slides.</p>'}</main>`
  return htmlDocument(publication.name, body, { style: themeStyle(publication.config) })
}

/** The page of a site that is not (or no longer) published. */
export function siteNotFoundPage(address: string): string {
  return htmlDocument('Not found', `<main><p class="notice">Nothing is published at ${escapeHtml(address)}.</p></main>`)
}
