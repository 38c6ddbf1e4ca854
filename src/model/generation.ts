import { generateConfig } from '../content/config.js'
import { loadFaker, seedFrom, type FakerFactory } from '../content/random.js'
import { loadDeckGenerator } from '../content/slides.js'
import type { JobStatusResponse, ProjectConfig } from '../schemas/index.js'
import type { JobRecord, TemplateRecord } from '../store/records.js'
import type { World } from '../store/world.js'
import { addVersion, appendSlides } from './projects.js'
import { publish } from './publishing.js'
import type { Urls } from './urls.js'

/** Nominal generation time: about 120 s with a team template, 240 s from scratch. */
export const NOMINAL_MS = { template: 120_000, scratch: 240_000 } as const

/** A prompt starting with this ends in a failed job. */
export const FAIL_PREFIX = 'emulator:fail'
/** A prompt starting with this is answered 502 and charges nothing. */
export const DISPATCH_ERROR_PREFIX = 'emulator:dispatch-error'

export function estimatedDuration(withTemplate: boolean): string {
  return `${(withTemplate ? NOMINAL_MS.template : NOMINAL_MS.scratch) / 1000} seconds`
}

/**
 * How long a job takes on the emulator clock: nominal × time scale, with a
 * seeded ±20% jitter (a pure function of the job id).
 */
export function simulatedDurationMs(jobId: string, withTemplate: boolean, timeScale: number): number {
  const nominal = withTemplate ? NOMINAL_MS.template : NOMINAL_MS.scratch
  const jitter = 0.8 + 0.4 * (seedFrom(`jitter:${jobId}`) / 0x7fffffff)
  return Math.round(nominal * timeScale * jitter)
}

/** A prompt without the emulator's magic prefix ("emulator:fail …"), spaces collapsed. */
export function promptText(prompt: string): string {
  return prompt
    .replace(new RegExp(`^(${FAIL_PREFIX}|${DISPATCH_ERROR_PREFIX})[:\\s]*`), '')
    .replace(/\s+/g, ' ')
    .trim()
}

/** A project name from a prompt: its first sentence, trimmed to 60 characters. */
export function nameFromPrompt(prompt: string): string {
  const cleaned = promptText(prompt)
  const first = (cleaned.split(/(?<=[.!?])\s/)[0] ?? '').replace(/[.!?]+$/, '')
  const name = first.length > 60 ? `${first.slice(0, 57).trimEnd()}…` : first
  return name.length === 0 ? 'Untitled' : name.charAt(0).toUpperCase() + name.slice(1)
}

function durationText(ms: number): string {
  const seconds = Math.round(ms / 1000)
  return `${seconds} second${seconds === 1 ? '' : 's'}`
}

/** The job as `GET /projects/jobs/{jobId}` answers it. */
export function jobStatusView(world: World, job: JobRecord, urls: Urls): JobStatusResponse {
  const project = world.projects.get(job.projectId)
  const view: JobStatusResponse = {
    jobId: job.id,
    status: job.status,
    editorUrl: project === undefined ? null : urls.editor(project.slug),
    projectId: project?.id ?? null,
    projectSlug: project?.slug ?? null,
    teamId: job.teamId,
    createdAt: job.createdAt,
  }
  if (job.status === 'completed' && job.finishedAt !== null) {
    view.finalDuration = durationText(Date.parse(job.finishedAt) - Date.parse(job.createdAt))
    const url = project === undefined ? null : urls.published(world, project)
    if (url !== null) view.publishedUrl = url
  }
  if (job.status === 'failed') view.error = job.error ?? 'Generation failed'
  return view
}

/** The colours of a project's theme that illustrations are drawn in. */
export function illustrationColors(config: ProjectConfig): { primary?: string; accent?: string } {
  const colors = config.theme?.colors.default
  return { primary: colors?.primary, accent: colors?.accent }
}

/**
 * The slides a job generates from its prompt: one per template slide (the
 * template's design, component and controls, with new content), or 4–8
 * from scratch.
 */
async function generatedSlides(
  createFaker: FakerFactory,
  world: World,
  job: JobRecord,
  template: TemplateRecord | undefined,
  config: ProjectConfig,
) {
  const { generateDeck } = await loadDeckGenerator()
  const faker = createFaker(seedFrom(`${world.seed}:${job.id}`))
  const request = { prompt: promptText(job.prompt), colors: illustrationColors(config) }
  if (template === undefined) return generateDeck(faker, request)
  const slides = generateDeck(faker, { ...request, designs: template.slides.map((slide) => slide.design) })
  return slides.map((slide, index) => {
    const kept = template.slides[index]!.files
    return {
      name: slide.name,
      files: { ...slide.files, 'slide.tsx': kept['slide.tsx'], 'slide.controls.json': kept['slide.controls.json'] },
    }
  })
}

/** The config a generated project starts with: the template's, or a seeded one. */
export async function initialConfig(world: World, jobId: string, template: TemplateRecord | undefined) {
  if (template !== undefined) return template.config
  const createFaker = await loadFaker()
  return generateConfig(createFaker(seedFrom(`${world.seed}:config:${jobId}`)))
}

/**
 * Finishes a processing job at `at`.
 *
 * - completed: the project gets its generated slides, a new version, and is
 *   published (so the job has `publishedUrl`).
 * - failed: the job gets `error`, the credit charged at acceptance goes back
 *   to the team, and the project is left without generated slides.
 */
export async function finishJob(
  world: World,
  jobId: string,
  outcome: 'completed' | 'failed',
  at: string,
  error?: string,
): Promise<JobRecord> {
  const job = world.jobs.get(jobId)!
  if (outcome === 'completed') {
    const project = world.projects.get(job.projectId)
    if (project !== undefined) {
      const template = job.templateId === null ? undefined : world.templates.get(job.templateId)
      const createFaker = await loadFaker()
      appendSlides(world, project.id, await generatedSlides(createFaker, world, job, template, project.config), at)
      addVersion(world, project.id, 'Generated from prompt', at)
      publish(world, project.id, at)
    }
  } else {
    const team = world.teams.get(job.teamId)
    if (team !== undefined) {
      world.teams.update(team.id, (draft) => {
        draft.credits += 1
      })
    }
  }
  return world.jobs.update(jobId, (draft) => {
    draft.status = outcome
    draft.finishedAt = at
    draft.error = outcome === 'failed' ? (error ?? 'Generation failed') : null
  })
}
