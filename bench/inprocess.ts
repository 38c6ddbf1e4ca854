/**
 * In-process figures, through the built package (what users import):
 * `emulator.fetch` against `emulator.handle()`, the msw `setupServer` path,
 * writes and loads at 100,000 projects.
 */
import { mkdtempSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { http as mswHttp, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
import { createEmulator, type EmulatorRequest } from 'presentation-emulator'
import { KEY, listFetch, rate } from './lib/list-fetch.js'
import { runNode } from './lib/process.js'
import { ratio, type Row } from './lib/row.js'
import { alternate, fmt, median } from './lib/stats.js'

const listRequest: EmulatorRequest = {
  method: 'GET',
  path: '/v1/projects',
  query: '',
  headers: { authorization: `Bearer ${KEY}` },
  body: null,
}

export async function fetchRows(options: { rounds: number; count: number }): Promise<Row[]> {
  const emulator = createEmulator({ rateLimit: 0 })
  await emulator.ready()
  const viaHandle = () => emulator.handle(listRequest)
  const viaFetch = listFetch(emulator)
  await rate(2000, viaHandle)
  await rate(2000, viaFetch)
  const runs = await alternate(options.rounds, { handle: () => rate(options.count, viaHandle), fetch: () => rate(options.count, viaFetch) })
  await emulator.close()
  const h = median(runs.handle)
  const f = median(runs.fetch)
  return [
    {
      measure: '`emulator.fetch` list req/s (body read as text), same process',
      emulator: fmt(f),
      baseline: `\`emulator.handle()\` list: ${fmt(h)}`,
      ratio: ratio(f / h),
      target: '≥ 0.6x',
      met: f / h >= 0.6,
    },
  ]
}

/**
 * msw `setupServer`: the emulator's handlers and one trivial handler sending
 * the same bytes, in one server, called in turn through the global `fetch`.
 */
export async function mswRows(options: { rounds: number; count: number }): Promise<Row[]> {
  const emulator = createEmulator({ rateLimit: 0, baseUrl: 'http://emulator.bench/v1' })
  await emulator.ready()
  const init = { headers: { authorization: `Bearer ${KEY}` } }
  const body = await (await emulator.fetch('http://emulator.bench/v1/projects', init)).text()
  const trivial = mswHttp.get(
    'http://trivial.bench/v1/projects',
    () => new HttpResponse(body, { headers: { 'content-type': 'application/json' } }),
  )
  const server = setupServer(...emulator.handlers, trivial)
  server.listen({ onUnhandledRequest: 'error' })
  try {
    const call = (origin: string) => async () => (await fetch(`${origin}/v1/projects`, init)).text()
    await rate(500, call('http://emulator.bench'))
    await rate(500, call('http://trivial.bench'))
    const count = Math.max(200, options.count / 10)
    const runs = await alternate(options.rounds, {
      emulator: () => rate(count, call('http://emulator.bench')),
      trivial: () => rate(count, call('http://trivial.bench')),
    })
    const e = 1e6 / median(runs.emulator)
    const t = 1e6 / median(runs.trivial)
    return [
      {
        measure: 'msw `setupServer` list, latency per request in-process (µs)',
        emulator: fmt(e),
        baseline: `one trivial msw handler, same bytes: ${fmt(t)}`,
        ratio: ratio(e / t),
        target: '(for information)',
        met: undefined,
      },
    ]
  } finally {
    server.close()
    await emulator.close()
  }
}

function bigFixtures(projects: number) {
  return {
    format: 'presentation-emulator/fixtures@1' as const,
    users: [{ id: 'u', name: 'Bench' }],
    teams: [{ id: 't', slug: 't', name: 'Bench', personalOf: 'u', members: ['u'] }],
    apiKeys: [{ key: 'pres_bench', userId: 'u' }],
    projects: [{ teamId: 't', count: projects, slideCount: 0, versions: 1 }],
  }
}

async function world(projects: number) {
  const started = performance.now()
  const emulator = createEmulator({ clock: 'manual', rateLimit: 0, fixtures: bigFixtures(projects) })
  await emulator.ready()
  return { emulator, ms: performance.now() - started }
}

/** Microseconds per write, alternating renames and config merges on projects spread over the world. */
async function writes(emulator: Awaited<ReturnType<typeof world>>['emulator'], slugs: string[], count: number): Promise<number> {
  const headers = { authorization: 'Bearer pres_bench' }
  const encoder = new TextEncoder()
  const started = performance.now()
  for (let i = 0; i < count; i++) {
    const slug = slugs[i % slugs.length]!
    const rename = i % 2 === 0
    const response = await emulator.handle({
      method: rename ? 'PATCH' : 'PUT',
      path: rename ? `/v1/projects/${slug}` : `/v1/projects/${slug}/config`,
      query: '',
      headers,
      body: encoder.encode(rename ? `{"name":"Renamed ${i}"}` : `{"config":{"layout":"${i % 4 === 1 ? 'CARD' : 'SLIDES'}"}}`),
    })
    if (response.status !== 200) throw new Error(`write answered ${response.status}: ${response.body}`)
  }
  return ((performance.now() - started) * 1000) / count
}

export async function scaleRows(options: { rounds: number; big: number; writes: number }): Promise<Row[]> {
  const small = await world(100)
  const big = await world(options.big)
  const slugsOf = (e: typeof small.emulator) => {
    const all = e.emulator.world.projects.all().map((p) => p.slug)
    return Array.from({ length: 200 }, (_, i) => all[Math.floor((i * all.length) / 200)]!)
  }
  await writes(small.emulator, slugsOf(small.emulator), 500)
  await writes(big.emulator, slugsOf(big.emulator), 500)
  const runs = await alternate(options.rounds, {
    small: () => writes(small.emulator, slugsOf(small.emulator), options.writes),
    big: () => writes(big.emulator, slugsOf(big.emulator), options.writes),
  })
  // The same world as a state file (what `--state FILE` and `PUT /_emulator/state` load).
  const file = join(mkdtempSync(join(tmpdir(), 'pe-state-')), 'state.json')
  writeFileSync(file, JSON.stringify(await big.emulator.control.getState()))
  const megabytes = statSync(file).size / 1024 / 1024
  await Promise.all([small.emulator.close(), big.emulator.close()])
  // Loads in fresh processes, as a user's test run or the CLI does them.
  const cpu: Record<string, number[]> = { fixtures: [], state: [] }
  const child = (mode: 'fixtures' | 'state', arg: string) => async () => {
    const result = JSON.parse(await runNode(['--import', 'tsx', 'bench/load-child.ts', mode, arg])) as { wall: number; cpu: number }
    cpu[mode]!.push(result.cpu)
    return result.wall
  }
  const loads = await alternate(options.rounds, { fixtures: child('fixtures', String(options.big)), state: child('state', file) })
  const s = median(runs.small)
  const b = median(runs.big)
  const load = median(loads.fixtures)
  const stateLoad = median(loads.state)
  const n = fmt(options.big)
  return [
    {
      measure: `a write (rename, config merge) in-process, µs, ${n} projects in the team vs 100`,
      emulator: `${fmt(b, 1)} at ${n}`,
      baseline: `${fmt(s, 1)} at 100`,
      ratio: ratio(b / s),
      target: '≤ 2x',
      met: b / s <= 2,
    },
    {
      measure: `load of a ${n}-project world from fixtures (\`createEmulator({ fixtures })\` to \`ready()\`, fresh process), s`,
      emulator: fmt(load / 1000, 2),
      baseline: `CPU time: ${fmt(median(cpu.fixtures!) / 1000, 2)} s`,
      ratio: '',
      target: '≤ 3 s',
      met: load <= 3000,
    },
    {
      measure: `load of the same world from a state file (${fmt(megabytes, 0)} MB: read, parse, validate, install, as \`--state\`), s`,
      emulator: fmt(stateLoad / 1000, 2),
      baseline: `CPU time: ${fmt(median(cpu.state!) / 1000, 2)} s`,
      ratio: '',
      target: '≤ 3 s',
      met: stateLoad <= 3000,
    },
  ]
}
