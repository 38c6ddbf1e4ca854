/**
 * The editor page at `editorUrl`: the project's slides in the viewer, a
 * header with its name, publish state, version and generation status, and
 * the editing indicator on every slide whose flag is on. It follows the
 * world live (see `page-server.ts`).
 */
import type { SlideCheckResultsReader } from '../../src/model/check-results.js'
import type { JobRecord, ProjectRecord } from '../../src/store/records.js'
import type { World } from '../../src/store/world.js'
import { siteAddress } from '../../src/model/urls.js'
import type { SlideTranspiler } from '../render/transpile.js'
import { escapeHtml, type ImagePolicy } from './html.js'
import { deckSlide, renderDeck, viewerDocument, type DeckView } from './viewer.js'

/** The project's latest generation job, if any. */
function latestJob(world: World, project: ProjectRecord): JobRecord | undefined {
  let latest: JobRecord | undefined
  for (const job of world.jobs.all()) if (job.projectId === project.id) latest = job
  return latest
}

/** The path of the published site (same origin as the page, whatever `--public-url` says). */
function sitePath(world: World, project: ProjectRecord): string {
  const address = siteAddress(world, project)
  return `/sites/${address.hostname}${address.path}`
}

function quoted(prompt: string): string {
  const text = prompt.trim()
  return `“${escapeHtml(text.length > 140 ? `${text.slice(0, 140)}…` : text)}”`
}

/**
 * A job's error as the page words it after its own "Generation failed" heading:
 * without a leading "Generation failed" of its own (the emulator's messages
 * and many servers' start with it), so the page never says it twice.
 */
function failureReason(error: string | null | undefined): string {
  return (error ?? '').replace(/^\s*generation failed\s*[:.\-–—]?\s*/i, '').trim()
}

/**
 * The editor's view of a project: what the page shows and what each live
 * update carries. With `checks`, each thumbnail shows its slide's last check
 * result for the slide's current files and the project's config (a badge);
 * reading them never starts a check.
 */
export function editorView(
  world: World,
  project: ProjectRecord,
  images: ImagePolicy,
  transpiler: SlideTranspiler,
  checks?: SlideCheckResultsReader,
): DeckView {
  const slides = world.slidesOf(project.id)
  const deck = renderDeck(
    project.config,
    slides.map((slide) => {
      const check = checks?.current(project.id, slide.id, slide.files, project.config)
      return check === undefined ? deckSlide(slide) : { ...deckSlide(slide), check }
    }),
    images,
    transpiler,
  )
  const version = project.latestVersionId === null ? undefined : world.versions.get(project.latestVersionId)
  const job = latestJob(world, project)
  const chips: string[] = []
  if (job?.status === 'processing')
    chips.push(
      '<span class="chip chip-busy" data-testid="generation-status"><span class="spinner" aria-hidden="true"></span>Generating</span>',
    )
  if (job?.status === 'failed') chips.push('<span class="chip chip-error" data-testid="generation-status">Generation failed</span>')
  chips.push(
    project.publishedAt === null
      ? '<span class="chip" data-testid="publish-state">Unpublished</span>'
      : `<a class="chip chip-ok" data-testid="publish-state" href="${escapeHtml(sitePath(world, project))}" target="_blank" rel="noopener">Published ↗</a>`,
  )
  if (version !== undefined) {
    // A long version name ("Updated slide …") is cut with an ellipsis; the title keeps it whole.
    const label = `v${version.number} · ${version.name}`
    chips.push(`<span class="chip chip-muted chip-version" title="Latest version: ${escapeHtml(label)}">${escapeHtml(label)}</span>`)
  }

  let notice = ''
  if (job?.status === 'processing') {
    notice = `<div class="notice-bar notice-busy" role="status"><span class="spinner" aria-hidden="true"></span><span>Generating slides from ${quoted(job.prompt)}. This page updates when they are ready.</span></div>`
  } else if (job?.status === 'failed') {
    const reason = failureReason(job.error)
    notice = `<div class="notice-bar notice-error" role="alert" data-testid="generation-failed"><strong>Generation failed${reason === '' ? '.' : ':'}</strong> ${reason === '' ? '' : `<span>${escapeHtml(reason)}</span> `}<span>The credit was refunded.</span></div>`
  }

  let empty: string
  if (job?.status === 'processing') {
    empty = `<div class="empty-card"><span class="spinner" aria-hidden="true"></span><h2>Generating your presentation…</h2><p>From ${quoted(job.prompt)}.</p><p>The slides appear here as soon as the job completes.</p></div>`
  } else if (job?.status === 'failed') {
    const reason = failureReason(job.error)
    empty = `<div class="empty-card failed" role="alert"><h2>Generation failed</h2>${reason === '' ? '' : `<p>${escapeHtml(reason)}</p>`}<p>No slides were created, and the credit went back to the team.</p></div>`
  } else {
    empty = `<div class="empty-card"><h2>This project has no slides yet.</h2><p>Add one with <code>POST /v1/projects/${escapeHtml(project.slug)}/slides</code>; it shows here at once.</p></div>`
  }

  return {
    title: `${project.name} · Editor`,
    name: project.name,
    meta: chips.join(''),
    notice,
    empty,
    css: deck.css,
    frameCss: deck.frameCss,
    renderVersion: deck.renderVersion,
    slides: deck.slides,
  }
}

/** The path of the editor's live event stream. */
export function editorEventsPath(slug: string): string {
  return `/editor/${encodeURIComponent(slug)}/events`
}

/** The editor page. */
export function editorPage(view: DeckView, slug: string): string {
  return viewerDocument(view, { mode: 'editor', eventsUrl: editorEventsPath(slug) })
}

/** The stage's slides alone (`/editor/{slug}/live`): each slide's `<article>`, or the empty state. */
export function editorSlidesHtml(view: DeckView): string {
  return view.slides.length > 0 ? view.slides.map((slide) => slide.frame).join('\n') : view.empty
}
