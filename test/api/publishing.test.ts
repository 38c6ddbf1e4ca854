import { beforeEach, describe, expect, it } from 'vitest'
import { PublishProjectResponse, UnpublishProjectResponse } from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

describe.each(WAYS)('publishing (%s)', (way) => {
  const h = harnessPerTest(way)
  let slug: string
  beforeEach(async () => {
    slug = (await h.api('POST', '/projects/welcome-deck/duplicate')).body.projectSlug
  })

  /** Reads the project, the list filters and the published site, and checks they agree. */
  async function observe() {
    const detail = (await h.api('GET', `/projects/${slug}`)).body
    const published = (await h.api('GET', '/projects?published=true&limit=100')).body.projects.map((p: any) => p.slug)
    const unpublished = (await h.api('GET', '/projects?published=false&limit=100')).body.projects.map((p: any) => p.slug)
    const isPublished = detail.publishedAt !== null
    expect(detail.publishedUrl !== null).toBe(isPublished)
    expect(published.includes(slug)).toBe(isPublished)
    expect(unpublished.includes(slug)).toBe(!isPublished)
    return detail
  }

  async function site(url: string) {
    const response = await h.emulator.fetch(url.replace(new URL(url).origin, 'http://127.0.0.1:4010'))
    return { status: response.status, html: await response.text() }
  }

  it('publishes, unpublishes and publishes again, with detail, list filters and site agreeing at every step', async () => {
    expect((await observe()).publishedAt).toBeNull()

    await h.emulator.control.advanceClock({ ms: 1000 })
    const first = expectSchema(PublishProjectResponse, (await h.api('POST', `/projects/${slug}/publish`)).body)
    expect(first).toMatchObject({ success: true, published: true })
    const published = await observe()
    expect(published.publishedAt).toBe(h.emulator.control.clock().now)
    expect(published.publishedUrl).toBe(first.publishedUrl)
    expect((await site(first.publishedUrl!)).status).toBe(200)

    const off = expectSchema(UnpublishProjectResponse, (await h.api('DELETE', `/projects/${slug}/publish`)).body)
    expect(off).toEqual({ success: true, published: false })
    const unpublished = await observe()
    expect(unpublished.publishedAt).toBeNull()
    expect((await site(first.publishedUrl!)).status).toBe(404)
    expect((await h.api('GET', `/projects/${slug}/slides`)).body.slides.length).toBeGreaterThan(0)

    const again = (await h.api('POST', `/projects/${slug}/publish`)).body
    expect(again.publishedUrl).toBe(first.publishedUrl)
    await observe()
    expect((await site(again.publishedUrl)).status).toBe(200)
  })

  it('is idempotent both ways', async () => {
    expect((await h.api('DELETE', `/projects/${slug}/publish`)).body).toEqual({ success: true, published: false })
    await h.api('POST', `/projects/${slug}/publish`)
    const twice = await h.api('POST', `/projects/${slug}/publish`)
    expect(twice.status).toBe(200)
    expect((await observe()).publishedAt).not.toBeNull()
  })

  it('does not move updatedAt or create a version when publishing', async () => {
    const before = (await h.api('GET', `/projects/${slug}`)).body
    await h.emulator.control.advanceClock({ ms: 5000 })
    await h.api('POST', `/projects/${slug}/publish`)
    const after = (await h.api('GET', `/projects/${slug}`)).body
    expect(after.updatedAt).toBe(before.updatedAt)
    expect(after.latestVersion).toEqual(before.latestVersion)
  })

  it('serves the snapshot taken at publish time until the next publish', async () => {
    const url = (await h.api('POST', `/projects/${slug}/publish`)).body.publishedUrl
    const world = await worldOf(h.emulator)
    const project = world.projectBySlug(slug)!
    const [firstSlide] = world.slidesOf(project.id)
    const originalTitle = JSON.parse(firstSlide!.files['slide.content.json']).title as string

    await h.api('PATCH', `/projects/${slug}`, { json: { name: 'Renamed after publishing' } })
    const edit = await h.api('PUT', `/projects/${slug}/slides/${firstSlide!.id}`, {
      json: { files: { 'slide.content.json': JSON.stringify({ title: 'Edited after publishing', blocks: [] }) } },
    })
    expect(edit.status).toBe(200)
    const stale = await site(url)
    expect(stale.html).toContain(originalTitle)
    expect(stale.html).not.toContain('Edited after publishing')
    expect(stale.html).not.toContain('Renamed after publishing')

    await h.api('POST', `/projects/${slug}/publish`)
    const fresh = await site(url)
    expect(fresh.html).toContain('Edited after publishing')
    expect(fresh.html).toContain('Renamed after publishing')
  })

  it('answers 404 to publishing or unpublishing a project the key cannot access, changing nothing', async () => {
    expectError(await h.api('POST', `/projects/${slug}/publish`, { key: 'pres_test_bob' }), 404, 'NOT_FOUND')
    expectError(await h.api('DELETE', '/projects/welcome-deck/publish', { key: 'pres_test_bob' }), 404, 'NOT_FOUND')
    expect((await h.api('GET', '/projects/welcome-deck')).body.publishedAt).not.toBeNull()
    expect((await observe()).publishedAt).toBeNull()
  })

  it('gives GET /url a current placement consistent with publishedUrl', async () => {
    const url = (await h.api('POST', `/projects/${slug}/publish`)).body.publishedUrl as string
    const config = (await h.api('GET', `/projects/${slug}/url`)).body
    expect(config.current.type).toBe('subdomain')
    expect(url).toBe(`${new URL(url).origin}/sites/${config.current.hostname}${config.current.path}`)
    expect(config.availableSubdomains[0]).toMatchObject({ id: config.current.subdomainId, isCustom: false })
    expect(config.current.projectSubdomainId).toBeTypeOf('string')
  })
})
