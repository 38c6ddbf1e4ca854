import { parse } from '@babel/parser'
import { describe, expect, it, vi } from 'vitest'
import { GenerateProjectResponse, JobStatusResponse, ProjectDetail } from '../../src/schemas/index.js'
import { createEmulator } from '../../src/index.js'
import { expectError, expectSchema, harnessPerTest, startHarness, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

const ACME = 'pres_test_alice_acme'

describe.each(WAYS)('generation jobs (%s)', (way) => {
  const h = harnessPerTest(way)

  const credits = async (teamId: string) => (await worldOf(h.emulator)).team(teamId)!.credits
  const generate = (json: unknown, key = ACME) => h.api('POST', '/projects/generate', { key, json })
  const job = (jobId: string, key = ACME) => h.api('GET', `/projects/jobs/${jobId}`, { key })

  it.each([
    [{ prompt: '' }, 400, 'prompt'],
    [{ prompt: 'a' }, 200, ''],
    [{}, 400, 'prompt: is required'],
    [{ prompt: 'a', referenceImageUrls: Array(20).fill('https://img.example/a.png') }, 200, ''],
    [
      { prompt: 'a', referenceImageUrls: Array(21).fill('https://img.example/a.png') },
      400,
      'referenceImageUrls: must have at most 20 items',
    ],
    [{ prompt: 'a', referenceImageUrls: ['not a url'] }, 400, 'referenceImageUrls[0]'],
    [{ prompt: 'a', model: 'fast' }, 200, ''],
    [{ prompt: 'a', model: 'quality' }, 200, ''],
    [{ prompt: 'a', model: 'gpt-5' }, 400, 'model: must be one of: "fast", "quality"'],
    [{ prompt: 'a', templateId: '' }, 400, 'templateId'],
    [{ prompt: 'a', colour: 'red' }, 400, 'unknown key "colour"'],
  ])('validates %j → %i', async (body, status, hint) => {
    const before = await credits('team_acme')
    const reply = await generate(body)
    expect(reply.status).toBe(status)
    if (status === 400) {
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toContain(hint)
      expect(await credits('team_acme')).toBe(before)
    } else {
      expect(await credits('team_acme')).toBe(before - 1)
    }
  })

  it('accepts a generation with every field of the spec and a project that exists at once', async () => {
    const reply = await generate({ prompt: 'Otters of the Pacific. A field guide.' })
    const body = expectSchema(GenerateProjectResponse, reply.body)
    expect(body).toMatchObject({ status: 'processing', estimatedDuration: '240 seconds' })
    expect(body.templateId).toBeUndefined()
    const project = expectSchema(ProjectDetail, (await h.api('GET', `/projects/${body.projectSlug}`, { key: ACME })).body)
    expect(project).toMatchObject({ id: body.projectId, name: 'Otters of the Pacific', publishedAt: null })
    expect((await worldOf(h.emulator)).slidesOf(body.projectId!)).toEqual([])
    const editor = await h.emulator.fetch(body.editorUrl!.replace(new URL(body.editorUrl!).origin, 'http://127.0.0.1:4010'))
    expect(editor.status).toBe(200)
    expect(await editor.text()).toContain('Generating slides')
  })

  it('estimates 120 seconds with a template and echoes the templateId', async () => {
    const body = (await generate({ prompt: 'Q4 numbers', templateId: 'tpl_acme_quarterly' })).body
    expect(body).toMatchObject({ estimatedDuration: '120 seconds', templateId: 'tpl_acme_quarterly' })
  })

  it('answers 404 to an unknown template and to a template of another team, charging nothing', async () => {
    expectError(await generate({ prompt: 'x', templateId: 'tpl_nope' }), 404, 'NOT_FOUND')
    const before = await credits('team_alice')
    expectError(await generate({ prompt: 'x', templateId: 'tpl_acme_pitch' }, 'pres_test_alice'), 404, 'NOT_FOUND')
    expect(await credits('team_alice')).toBe(before)
  })

  it('answers 402 without credits, then accepts once credits appear', async () => {
    const refused = await generate({ prompt: 'Bob’s plan' }, 'pres_test_bob')
    expectError(refused, 402, 'INSUFFICIENT_CREDITS')
    // The hint names the team as every other place does (its id), and how to give it credits.
    expect(refused.body.hint).toBe(
      'team team_bob has no credits left; a generation costs 1 credit (PUT /_emulator/teams/team_bob/credits gives it some)',
    )
    await h.emulator.control.setCredits('team_bob', { credits: 1 })
    expect((await generate({ prompt: 'Bob’s plan' }, 'pres_test_bob')).status).toBe(200)
    expect(await credits('team_bob')).toBe(0)
    expectError(await generate({ prompt: 'Again' }, 'pres_test_bob'), 402, 'INSUFFICIENT_CREDITS')
  })

  it('answers 502 to a dispatch-error prompt, charging nothing and creating nothing', async () => {
    const before = { credits: await credits('team_acme'), projects: (await worldOf(h.emulator)).count('projects') }
    expectError(await generate({ prompt: 'emulator:dispatch-error please' }), 502, 'DISPATCH_FAILED')
    expect({ credits: await credits('team_acme'), projects: (await worldOf(h.emulator)).count('projects') }).toEqual(before)
  })

  it('stays processing until due on the manual clock, then completes with every field', async () => {
    const accepted = (await generate({ prompt: 'Launch plan', templateId: 'tpl_acme_launch' })).body
    const dueAt = Date.parse((await worldOf(h.emulator)).job(accepted.jobId)!.dueAt)
    const now = Date.parse(h.emulator.control.clock().now)
    // 120 s × 0.02 with ±20% jitter.
    expect(dueAt - now).toBeGreaterThanOrEqual(1920)
    expect(dueAt - now).toBeLessThanOrEqual(2880)

    await h.emulator.control.advanceClock({ ms: dueAt - now - 1 })
    const pending = expectSchema(JobStatusResponse, (await job(accepted.jobId)).body)
    expect(pending).toEqual({
      jobId: accepted.jobId,
      status: 'processing',
      editorUrl: accepted.editorUrl,
      projectId: accepted.projectId,
      projectSlug: accepted.projectSlug,
      teamId: 'team_acme',
      createdAt: new Date(now).toISOString(),
    })

    await h.emulator.control.advanceClock({ ms: 1 })
    const done = expectSchema(JobStatusResponse, (await job(accepted.jobId)).body)
    expect(done.status).toBe('completed')
    expect(done.finalDuration).toBe(`${Math.round((dueAt - now) / 1000)} seconds`)
    expect(done.publishedUrl).toMatch(/\/sites\/.+\.sites\.localhost\/$/)
    expect(done.error).toBeUndefined()

    const world = await worldOf(h.emulator)
    const template = world.template('tpl_acme_launch')!
    const slides = world.slidesOf(accepted.projectId)
    expect(slides).toHaveLength(template.slides.length)
    slides.forEach((slide, i) => {
      expect(slide.files['slide.tsx']).toBe(template.slides[i]!.files['slide.tsx'])
      expect(slide.files['slide.content.json']).not.toBe(template.slides[i]!.files['slide.content.json'])
    })
    const project = (await h.api('GET', `/projects/${accepted.projectSlug}`, { key: ACME })).body
    expect(project.publishedUrl).toBe(done.publishedUrl)
    expect(project.latestVersion.name).toBe('Generated from prompt')
  })

  it('generates 4 to 8 valid slides from scratch', async () => {
    const accepted = (await generate({ prompt: 'A history of tea' })).body
    await h.emulator.control.advanceClock({ ms: 10_000 })
    expect((await job(accepted.jobId)).body.status).toBe('completed')
    const slides = (await worldOf(h.emulator)).slidesOf(accepted.projectId)
    expect(slides.length).toBeGreaterThanOrEqual(4)
    expect(slides.length).toBeLessThanOrEqual(8)
    for (const slide of slides) {
      const ast = parse(slide.files['slide.tsx'], { sourceType: 'module', plugins: ['typescript', 'jsx'] })
      expect(ast.program.body.some((node) => node.type === 'ExportDefaultDeclaration')).toBe(true)
      expect(typeof JSON.parse(slide.files['slide.content.json'])).toBe('object')
      expect(typeof JSON.parse(slide.files['slide.controls.json'])).toBe('object')
    }
  })

  it('completes a job without polling it: advancing the clock is enough for the project to change', async () => {
    const accepted = (await generate({ prompt: 'Unpolled' })).body
    await h.emulator.control.advanceClock({ ms: 10_000 })
    expect((await worldOf(h.emulator)).job(accepted.jobId)!.status).toBe('completed')
    const project = (await h.api('GET', `/projects/${accepted.projectSlug}`, { key: ACME })).body
    expect(project.publishedAt).not.toBeNull()
    const published = (await h.api('GET', '/projects?published=true&limit=100', { key: ACME })).body.projects
    expect(published.map((p: any) => p.id)).toContain(accepted.projectId)
  })

  it('fails an emulator:fail job when due, refunding its credit and generating no slides', async () => {
    const before = await credits('team_acme')
    const accepted = (await generate({ prompt: 'emulator:fail this one' })).body
    expect(await credits('team_acme')).toBe(before - 1)
    await h.emulator.control.advanceClock({ ms: 10_000 })
    const failed = expectSchema(JobStatusResponse, (await job(accepted.jobId)).body)
    expect(failed.status).toBe('failed')
    expect(failed.error).toMatch(/failed/i)
    expect(failed.finalDuration).toBeUndefined()
    expect(failed.publishedUrl).toBeUndefined()
    expect(await credits('team_acme')).toBe(before)
    expect((await worldOf(h.emulator)).slidesOf(accepted.projectId)).toEqual([])
  })

  it('answers 404 to an unknown job and to another user’s job', async () => {
    const accepted = (await generate({ prompt: 'Private' })).body
    expectError(await job('job_nope'), 404, 'NOT_FOUND')
    expectError(await job(accepted.jobId, 'pres_test_bob'), 404, 'NOT_FOUND')
    // The same user's other key can read it: the project is accessible to Alice.
    expect((await job(accepted.jobId, 'pres_test_alice')).status).toBe(200)
  })

  it('starts a duplicate of a generated project unpublished with a fresh URL', async () => {
    const accepted = (await generate({ prompt: 'To be copied' })).body
    await h.emulator.control.advanceClock({ ms: 10_000 })
    const copy = (await h.api('POST', `/projects/${accepted.projectSlug}/duplicate`, { key: ACME })).body
    const detail = (await h.api('GET', `/projects/${copy.projectSlug}`, { key: ACME })).body
    expect(detail.publishedAt).toBeNull()
    expect(detail.publishedUrl).toBeNull()
    const [a, b] = await Promise.all([
      h.api('GET', `/projects/${accepted.projectSlug}/url`, { key: ACME }),
      h.api('GET', `/projects/${copy.projectSlug}/url`, { key: ACME }),
    ])
    expect(b.body.current.hostname).not.toBe(a.body.current.hostname)
    const world = await worldOf(h.emulator)
    expect(world.slidesOf(copy.projectId).length).toBe(world.slidesOf(accepted.projectId).length)
  })
})

describe('generation timing', () => {
  it('completes at the next read with time scale 0', async () => {
    const h = await startHarness('fetch', { timeScale: 0 })
    const accepted = (await h.api('POST', '/projects/generate', { key: ACME, json: { prompt: 'Instant' } })).body
    expect(accepted.status).toBe('processing')
    expect((await h.api('GET', `/projects/jobs/${accepted.jobId}`, { key: ACME })).body.status).toBe('completed')
    await h.close()
  })

  it('completes on a real clock by its own timer, with no request at all', async () => {
    // 240 s × 0.00005 ≈ 12 ms: the timer, not a request, must finish it (reading the state through the
    // control plane completes nothing). No bound on how long: on a busy machine the first completion,
    // which loads faker, may take seconds; the test's own timeout only guards against a hang.
    const emulator = createEmulator({ clock: 'real', timeScale: 0.00005, rateLimit: 0 })
    const response = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
      method: 'POST',
      headers: { authorization: `Bearer ${ACME}` },
      body: JSON.stringify({ prompt: 'Timer' }),
    })
    const { jobId } = (await response.json()) as { jobId: string }
    await expect.poll(async () => (await worldOf(emulator)).job(jobId)!.status, { timeout: 120_000, interval: 20 }).toBe('completed')
    expect(emulator.control.listRequests().requests).toHaveLength(1)
    await emulator.close()
  }, 150_000)

  it('completes on a real clock when its timer fires before the wall clock reaches the due time', async () => {
    // Node runs a timer by its own monotonic clock, which may be a millisecond ahead of Date.now(): the job's
    // timer can fire while the job is not quite due. It must wake again, not leave the job for the next request.
    // Here the timers and the wall clock are fake, and the wall clock is set back 1 ms behind the timers.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const emulator = createEmulator({ clock: 'real', timeScale: 0.001, rateLimit: 0 })
      const response = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
        method: 'POST',
        headers: { authorization: `Bearer ${ACME}` },
        body: JSON.stringify({ prompt: 'Early timer' }),
      })
      const { jobId } = (await response.json()) as { jobId: string }
      const dueAt = Date.parse((await worldOf(emulator)).job(jobId)!.dueAt)
      vi.setSystemTime(Date.now() - 1)
      await vi.advanceTimersByTimeAsync(dueAt - Date.now() - 1)
      expect((await worldOf(emulator)).job(jobId)!.status, 'the timer fired 1 ms before the due time').toBe('processing')
      await vi.advanceTimersByTimeAsync(1)
      expect((await worldOf(emulator)).job(jobId)!.status).toBe('completed')
      expect(emulator.control.listRequests().requests).toHaveLength(1)
      await emulator.close()
    } finally {
      vi.useRealTimers()
    }
  })

  it('seeds the ±20% jitter by job id, so the same seed gives the same due times', async () => {
    const dueTimes = async () => {
      const emulator = createEmulator({ clock: 'manual', timeScale: 1 })
      const reply = await emulator.fetch('http://127.0.0.1:4010/v1/projects/generate', {
        method: 'POST',
        headers: { authorization: `Bearer ${ACME}` },
        body: JSON.stringify({ prompt: 'Jitter' }),
      })
      const { jobId } = (await reply.json()) as { jobId: string }
      return (await worldOf(emulator)).job(jobId)!.dueAt
    }
    expect(await dueTimes()).toBe(await dueTimes())
  })
})
