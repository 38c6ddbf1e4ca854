import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

/** A fixed script of requests; returns every response body as text. */
async function script(seed: number): Promise<string[]> {
  const emulator = createEmulator({ seed, clock: 'manual', rateLimit: 0, timeScale: 1 })
  const bodies: string[] = []
  const call = async (method: string, path: string, key: string, json?: unknown) => {
    const response = await emulator.fetch(`http://127.0.0.1:4010/v1${path}`, {
      method,
      headers: { authorization: `Bearer ${key}` },
      body: json === undefined ? undefined : JSON.stringify(json),
    })
    const text = await response.text()
    bodies.push(`${response.status} ${text}`)
    return JSON.parse(text)
  }
  await call('GET', '/projects?limit=100', 'pres_test_alice_acme')
  const created = await call('POST', '/projects', 'pres_test_alice', { name: 'Same every time' })
  await call('GET', `/projects/${created.projectSlug}`, 'pres_test_alice')
  await call('POST', '/projects/welcome-deck/duplicate', 'pres_test_alice')
  await call('PUT', '/projects/welcome-deck/config', 'pres_test_alice', { config: { layout: 'CARD' } })
  const job = await call('POST', '/projects/generate', 'pres_test_alice_acme', {
    prompt: 'Quarterly numbers',
    templateId: 'tpl_acme_pitch',
  })
  await emulator.control.advanceClock({ ms: 200_000 })
  await call('GET', `/projects/jobs/${job.jobId}`, 'pres_test_alice_acme')
  await call('GET', `/projects/${job.projectSlug}/slides`, 'pres_test_alice_acme')
  bodies.push(JSON.stringify(await emulator.control.getState()))
  await emulator.close()
  return bodies
}

describe('determinism', () => {
  it('gives byte-identical responses and state for the same seed and requests', async () => {
    const [first, second] = await Promise.all([script(7), script(7)])
    expect(second).toEqual(first)
  })

  it('gives different ids and content for a different seed', async () => {
    const [a, b] = await Promise.all([script(1), script(2)])
    expect(a[0]).not.toEqual(b[0])
    // The fixed parts of the world do not depend on the seed.
    expect(a[0]).toContain('q3-business-review')
    expect(b[0]).toContain('q3-business-review')
  })

  it('keeps two emulators in one process independent', async () => {
    const one = createEmulator({ clock: 'manual' })
    const two = createEmulator({ clock: 'manual' })
    const headers = { authorization: 'Bearer pres_test_alice' }
    await one.fetch('http://127.0.0.1:4010/v1/projects', { method: 'POST', headers, body: '{"name":"Only in one"}' })
    const list = async (e: typeof one) =>
      (await (await e.fetch('http://127.0.0.1:4010/v1/projects?limit=100', { headers })).json()) as { projects: Array<{ name: string }> }
    expect((await list(one)).projects.some((p) => p.name === 'Only in one')).toBe(true)
    expect((await list(two)).projects.some((p) => p.name === 'Only in one')).toBe(false)
    await one.control.advanceClock({ ms: 60_000 })
    expect(one.control.clock().now).not.toEqual(two.control.clock().now)
  })
})
