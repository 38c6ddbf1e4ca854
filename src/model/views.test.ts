import { describe, expect, it } from 'vitest'
import { createEmulator } from '../index.js'
import { responseCache } from './response-cache.js'
import { Urls } from './urls.js'
import { projectListItem } from './views.js'

describe('the response cache', () => {
  it('is the JSON of the list item, follows each update of the record and each change of origin', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
    const world = emulator.emulator.world
    const cache = responseCache(world)
    const projectListItemJson = (...args: Parameters<typeof cache.listItem>) => cache.listItem(...args).json
    let origin = 'http://127.0.0.1:4010'
    const urls = new Urls(() => origin)
    const before = world.projectBySlug('welcome-deck')!
    expect(projectListItemJson(before, urls)).toBe(JSON.stringify(projectListItem(before, urls)))
    const after = world.projects.update(before.id, (draft) => {
      draft.name = 'Renamed'
    })
    expect(JSON.parse(projectListItemJson(after, urls)).name).toBe('Renamed')
    expect(JSON.parse(projectListItemJson(before, urls)).name).toBe(before.name)
    origin = 'http://localhost:9999'
    expect(projectListItemJson(after, urls)).toBe(JSON.stringify(projectListItem(after, urls)))
    expect(projectListItemJson(after, urls)).toContain('http://localhost:9999/editor/welcome-deck')
    expect(cache.listItem(after, urls).item).toEqual(projectListItem(after, urls))
    await emulator.close()
  })

  it('gives a list page whose text is exactly the JSON of its value', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const headers = { authorization: 'Bearer pres_test_alice_acme' }
    for (const query of ['', '?limit=3', '?published=true&limit=2']) {
      const text = await (await emulator.fetch(`http://127.0.0.1:4010/v1/projects${query}`, { headers })).text()
      expect(text).toBe(JSON.stringify(JSON.parse(text)))
      expect(Object.keys(JSON.parse(text))).toEqual(['projects', 'nextCursor'])
    }
    await emulator.close()
  })

  it('answers a repeated list with the same text until a project of the page changes', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    const headers = { authorization: 'Bearer pres_test_alice_acme' }
    const list = async () => (await emulator.fetch('http://127.0.0.1:4010/v1/projects?limit=5', { headers })).text()
    const first = await list()
    expect(await list()).toBe(first)
    const slug = JSON.parse(first).projects[2].slug as string
    await emulator.fetch(`http://127.0.0.1:4010/v1/projects/${slug}/publish`, { method: 'DELETE', headers })
    await emulator.fetch(`http://127.0.0.1:4010/v1/projects/${slug}`, { method: 'PATCH', headers, body: '{"name":"Fresh name"}' })
    const after = JSON.parse(await list()) as { projects: Array<{ slug: string; name: string; publishedAt: string | null }> }
    expect(after.projects[0]).toMatchObject({ slug, name: 'Fresh name', publishedAt: null })
    await emulator.close()
  })

  it('has its text checked against the value it stands for when responses are validated', async () => {
    const errors: unknown[] = []
    const emulator = createEmulator({ clock: 'manual', validateResponses: true, onError: (error) => errors.push(error) })
    const headers = { authorization: 'Bearer pres_test_alice_acme' }
    const list = () => emulator.fetch('http://127.0.0.1:4010/v1/projects?limit=2', { headers })
    const first = (await (await list()).json()) as { projects: Array<{ slug: string }> }
    // A kept page whose value no longer matches its text (what a handler changing a cached item would do).
    const world = emulator.emulator.world
    const project = world.projectBySlug(first.projects[0]!.slug)!
    ;(responseCache(world).listItem(project, emulator.emulator.urls).item as { name: string }).name = 'Tampered'
    const second = await list()
    expect(second.status).toBe(500)
    expect(await second.json()).toMatchObject({ error: 'Internal server error' })
    await emulator.close()
  })
})
