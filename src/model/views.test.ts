import { describe, expect, it } from 'vitest'
import { createEmulator } from '../index.js'
import { Urls } from './urls.js'
import { cachedListItem, projectListItem } from './views.js'

const projectListItemJson = (...args: Parameters<typeof cachedListItem>) => cachedListItem(...args).json

describe('cachedListItem', () => {
  it('is the JSON of the list item, follows each update of the record and each change of origin', async () => {
    const emulator = createEmulator({ clock: 'manual' })
    await emulator.ready()
    const world = emulator.emulator.world
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
    expect(cachedListItem(after, urls).item).toEqual(projectListItem(after, urls))
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
})
