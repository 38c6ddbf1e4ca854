import { describe, expect, it } from 'vitest'
import { Mutex } from '../core/mutex.js'
import { createEmulator } from '../index.js'

const request = (method: string, path: string, body?: unknown) => ({
  method,
  path,
  query: '',
  headers: { authorization: 'Bearer pres_test_alice' },
  body: body === undefined ? null : new TextEncoder().encode(JSON.stringify(body)),
})

describe('Mutex', () => {
  it('is idle only when no task is queued or running', async () => {
    const mutex = new Mutex()
    expect(mutex.idle).toBe(true)
    let release: () => void = () => {}
    const first = mutex.run(() => new Promise<void>((resolve) => (release = resolve)))
    const second = mutex.run(() => 'done')
    expect(mutex.idle).toBe(false)
    await Promise.resolve()
    release()
    await first
    expect(await second).toBe('done')
    await Promise.resolve()
    expect(mutex.idle).toBe(true)
  })
})

describe('the /v1 pipeline', () => {
  it('makes a read sent while a write holds the lock wait for it, and see what it wrote', async () => {
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    await emulator.ready()
    const slides = JSON.parse((await emulator.handle(request('GET', '/v1/projects/welcome-deck/slides'))).body!).slides
    // The update loads the slide parsers inside the lock: the read arrives while it waits for them.
    const write = emulator.handle(
      request('PUT', `/v1/projects/welcome-deck/slides/${slides[0].id}`, { files: { 'slide.content.json': '{"title":"Now"}' } }),
    )
    const read = emulator.handle(request('GET', '/v1/projects/welcome-deck'))
    const [written, seen] = await Promise.all([write, read])
    expect(written.status).toBe(200)
    expect(JSON.parse(seen.body!).latestVersion.id).toBe(JSON.parse(written.body!).versionId)
    await emulator.close()
  })
})
