import { generateConfig } from '../content/config.js'
import { loadFaker, seedFrom, type FakerFactory } from '../content/random.js'
import { designAt, generateContent, slideFiles, slideName } from '../content/slides.js'
import type { JobStatusResponse } from '../schemas/index.js'
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

/** A project name from a prompt: its first sentence, trimmed to 60 characters. */
export function nameFromPrompt(prompt: string): string {
  const cleaned = prompt
    .replace(new RegExp(`^(${FAIL_PREFIX}|${DISPATCH_ERROR_PREFIX})[:\\s]*`), '')
    .replace(/\s+/g, ' ')
    .trim()
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

/** The slides a job generates: one per template slide (its design and component, new content), or 4–8 from scratch. */
function generatedSlides(createFaker: FakerFactory, world: World, job: JobRecord, template: TemplateRecord | undefined, topic: string) {
  const faker = createFaker(seedFrom(`${world.seed}:${job.id}`))
  if (template !== undefined) {
    return template.slides.map((slide, index) => {
      const content = generateContent(faker, slide.design, topic)
      const files = slideFiles(slide.design, content)
      return { name: slideName(content, index), files: { ...files, 'slide.tsx': slide.files['slide.tsx'] } }
    })
  }
  const count = faker.number.int({ min: 4, max: 8 })
  return Array.from({ length: count }, (_, index) => {
    const design = designAt(index, count, faker)
    const content = generateContent(faker, design, topic)
    return { name: slideName(content, index), files: slideFiles(design, content) }
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
      appendSlides(world, project.id, generatedSlides(createFaker, world, job, template, project.name), at)
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
