import type { EditingState, ProjectRecord, SlideRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import { escapeHtml, htmlDocument, renderSlideContent, themeStyle } from './html.js'

function editingOverlay(editing: EditingState): string {
  const who = editing.agentName?.trim() || 'An agent'
  const what = editing.editPrompt?.trim() ? `<div class="prompt">${escapeHtml(editing.editPrompt)}</div>` : ''
  return `<div class="editing" role="status" aria-live="polite" data-testid="editing-indicator"><div class="spinner"></div><strong>${escapeHtml(who)} is editing this slide</strong>${what}</div>`
}

function slideFrame(slide: SlideRecord, index: number): string {
  return `<article class="slide-frame" data-slide-id="${escapeHtml(slide.id)}">${renderSlideContent(slide.files)}${slide.editing === null ? '' : editingOverlay(slide.editing)}<footer>${index + 1}. ${escapeHtml(slide.name)}</footer></article>`
}

/** The slides part of the editor page (what the live update replaces). */
export function editorSlidesHtml(world: World, project: ProjectRecord): string {
  const slides = world.slidesOf(project.id)
  if (slides.length > 0) return slides.map(slideFrame).join('\n')
  const generating = world.jobs.all().some((job) => job.projectId === project.id && job.status === 'processing')
  return `<p class="notice">${generating ? 'Generating slides… this page updates when they are ready.' : 'This project has no slides yet.'}</p>`
}

/** The editor page at `editorUrl`: the project's slides in order, live. */
export function editorPage(world: World, project: ProjectRecord): string {
  const version = project.latestVersionId === null ? undefined : world.versions.get(project.latestVersionId)
  const liveUrl = `/editor/${encodeURIComponent(project.slug)}/live`
  const body = `<header class="bar"><h1 data-testid="project-name">${escapeHtml(project.name)}</h1><span class="meta">Editor · ${escapeHtml(project.slug)}${version === undefined ? '' : ` · ${escapeHtml(version.name)}`}${project.publishedAt === null ? ' · unpublished' : ' · published'}</span></header>
<main id="slides">${editorSlidesHtml(world, project)}</main>`
  // Live updates without a reload: poll the slides fragment, swap it when it changes.
  const script = `(() => {
  const main = document.getElementById('slides');
  let last = main.innerHTML;
  setInterval(async () => {
    try {
      const response = await fetch(${JSON.stringify(liveUrl)}, { cache: 'no-store' });
      if (!response.ok) return;
      const html = await response.text();
      if (html !== last) { main.innerHTML = html; last = html; }
    } catch {}
  }, 1000);
})();`
  return htmlDocument(`${project.name} · Editor`, body, { style: themeStyle(project.config), script })
}
