// The "In Node tests with msw" example of docs/guides/node-tests.md (and the
// README's shorter one), as written there: if this fails, the docs are wrong.
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const emulator = createEmulator({ baseUrl: 'https://api.presentation.example/v1', clock: 'manual' })
const server = setupServer(...emulator.handlers)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())

it('generates a deck', async () => {
  const res = await fetch('https://api.presentation.example/v1/projects/generate', {
    method: 'POST',
    headers: { authorization: 'Bearer pres_test_alice_acme', 'content-type': 'application/json' },
    body: JSON.stringify({ prompt: 'Quarterly results', templateId: 'tpl_acme_quarterly' }),
  })
  const { jobId } = await res.json()
  await emulator.control.advanceClock({ ms: 10_000 }) // no real waiting
  const job = await (
    await fetch(`https://api.presentation.example/v1/projects/jobs/${jobId}`, {
      headers: { authorization: 'Bearer pres_test_alice_acme' },
    })
  ).json()
  expect(job.status).toBe('completed')
})

it('answers the socket-free fetch example', async () => {
  const other = createEmulator()
  const res = await other.fetch('http://127.0.0.1:4010/v1/teams', {
    headers: { authorization: 'Bearer pres_test_alice' },
  })
  const body = (await res.json()) as { teams: Array<{ id: string }> }
  expect(body.teams.map((team) => team.id)).toEqual(['team_alice', 'team_acme'])
  await other.close()
})
