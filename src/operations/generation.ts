import { fail } from '../core/errors.js'
import { canAccess } from '../model/access.js'
import {
  DISPATCH_ERROR_PREFIX,
  estimatedDuration,
  FAIL_PREFIX,
  initialConfig,
  jobStatusView,
  nameFromPrompt,
  simulatedDurationMs,
} from '../model/generation.js'
import { createProject } from '../model/projects.js'
import { DEFAULT_MODEL } from '../schemas/index.js'
import type { OperationHandlers } from './context.js'

export const generationHandlers: OperationHandlers<'generateProject' | 'getJobStatus'> = {
  async generateProject({ world, env, principal, body }) {
    const team = principal.team
    const template = body.templateId === undefined ? undefined : world.templates.get(body.templateId)
    if (body.templateId !== undefined && (template === undefined || template.teamId !== team.id)) {
      throw fail.notFound('Template', `no template "${body.templateId}" in the API key's team ${team.id}`)
    }
    if (team.credits < 1) {
      throw fail.insufficientCredits(
        `team ${team.id} has no credits left; a generation costs 1 credit (PUT /_emulator/teams/${team.id}/credits gives it some)`,
      )
    }
    if (body.prompt.startsWith(DISPATCH_ERROR_PREFIX)) {
      throw fail.dispatchFailed(`the prompt starts with "${DISPATCH_ERROR_PREFIX}"; nothing was charged`)
    }

    const now = env.clock.now()
    const at = new Date(now).toISOString()
    const jobId = world.ids('job')
    const { project } = createProject(world, {
      teamId: team.id,
      createdBy: principal.user.id,
      name: nameFromPrompt(body.prompt),
      config: await initialConfig(world, jobId, template),
      at,
      versionName: 'Generation started',
    })
    world.teams.update(team.id, (draft) => {
      draft.credits -= 1
    })
    const duration = simulatedDurationMs(jobId, template !== undefined, env.timeScale)
    world.jobs.insert({
      id: jobId,
      teamId: team.id,
      userId: principal.user.id,
      keyId: principal.key.id,
      projectId: project.id,
      prompt: body.prompt,
      templateId: template?.id ?? null,
      model: body.model ?? DEFAULT_MODEL,
      referenceImageUrls: body.referenceImageUrls ?? [],
      status: 'processing',
      createdAt: at,
      dueAt: new Date(now + duration).toISOString(),
      outcome: body.prompt.startsWith(FAIL_PREFIX) ? 'failed' : 'completed',
      finishedAt: null,
      error: null,
    })
    return {
      jobId,
      status: 'processing',
      editorUrl: env.urls.editor(project.slug),
      estimatedDuration: estimatedDuration(template !== undefined),
      projectId: project.id,
      projectSlug: project.slug,
      ...(template === undefined ? {} : { templateId: template.id }),
    }
  },

  getJobStatus({ world, env, principal, params }) {
    const job = world.jobs.get(params.jobId)
    const project = job === undefined ? undefined : world.projects.get(job.projectId)
    if (job === undefined || project === undefined || !canAccess(world, principal.user.id, project)) {
      throw fail.notFound('Job', `no job "${params.jobId}" is accessible with this API key`)
    }
    return jobStatusView(world, job, env.urls)
  },
}
