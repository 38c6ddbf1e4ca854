import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { afterAll, beforeAll, describe, expect } from 'vitest'
import { SLIDE_DESIGNS } from '../../src/content/slides.js'
import { createEmulator } from '../../src/index.js'
import { type CliServer, ensureBuilt, it, killAll, ROOT } from '../support/cli.js'

/**
 * The built bundles (`dist/`, what users run) generate every slide design
 * with the faker they carry and check every slide file kind with the parsers
 * they carry, exactly as the sources do. Faker and Babel's parser are bundled
 * as published (scripts/build.ts changes no dependency's code); this is the
 * test that would catch a bundle drawing or parsing differently from the
 * sources, or throwing on a branch of the generator only a rare seed takes.
 *
 * The designs come from the generator itself (`SLIDE_DESIGNS`), so a new
 * design is covered as soon as it exists.
 */

type Call = (method: string, path: string, body?: unknown, key?: string) => Promise<{ status: number; body: any }>

/** A way to run a bundle: a `call` into an emulator with seed 7 on a manual clock and no rate limit. */
interface Target {
  call: Call
  close: () => Promise<unknown>
}

const ORIGIN = 'http://127.0.0.1:4010'
const OPTIONS = { seed: 7, clock: 'manual', rateLimit: 0 } as const

type Emulator = ReturnType<typeof createEmulator>
function inProcess(emulator: Emulator): Target {
  return {
    call: async (method, path, body, key = 'pres_test_alice_acme') => {
      const response = await emulator.fetch(`${ORIGIN}${path}`, {
        method,
        headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      })
      const text = await response.text()
      return { status: response.status, body: text === '' ? undefined : JSON.parse(text) }
    },
    close: () => emulator.close(),
  }
}

function overHttp(server: CliServer): Target {
  return {
    call: async (method, path, body, key = 'pres_test_alice_acme') => {
      const reply = await server.request(method, path, { key, ...(body === undefined ? {} : { json: body }) })
      return { status: reply.status, body: reply.body }
    },
    close: () => server.stop('SIGTERM'),
  }
}

const importDist = async <T>(path: string): Promise<T> => (await import(pathToFileURL(join(ROOT, path)).href)) as T

/** Files of each kind that the checks refuse (where the problem is) or accept (`at: null`). */
const EDGE_CASES: Array<{ file: string; text: string; at: string | null }> = [
  { file: 'slide.tsx', text: 'export default function Slide() {\n  return <div>;\n}\n', at: 'slide.tsx:2:' },
  {
    file: 'slide.tsx',
    text: 'export default function Slide() {\n  const style = { color: "red" margin: 0 }\n  return <div style={style} />\n}\n',
    at: 'slide.tsx:2:32: Unexpected token, expected ","',
  },
  { file: 'slide.tsx', text: 'let x: = 1\nexport default x', at: 'slide.tsx:1:' },
  { file: 'slide.tsx', text: 'type Props = {}\nexport { type Props as default }', at: 'slide.tsx' },
  { file: 'slide.tsx', text: 'type P = { n: number }\nexport default function Slide(p: P) { return <p>{p.n as number}</p> }', at: null },
  { file: 'slide.content.json', text: '{\n  "title": "Broken",\n  "blocks": [}\n', at: 'slide.content.json:3:' },
  { file: 'slide.controls.json', text: '{ "controls": [1,] }', at: 'slide.controls.json:1:' },
]

interface Run {
  /** Every slide's design, keyed `project/slide`, for slides whose design is known (made from a template). */
  designs: Record<string, string>
  /** Every answer of the run, in order, and the final state. */
  transcript: unknown[]
  state: any
}

/**
 * Builds a world at run time (seed 7: fixtures drawn by the bundle's faker), makes templates until
 * their slides cover every design, generates a deck from each and three from scratch, then puts every
 * generated file back (each kind through its own check) and a broken one of each kind.
 */
async function scenario(call: Call): Promise<Run> {
  const transcript: unknown[] = []
  const record = async (...args: Parameters<Call>) => {
    const reply = await call(...args)
    transcript.push([args[0], args[1], reply.status, reply.body])
    return reply
  }
  const state = async () => (await call('GET', '/_emulator/state')).body
  const advance = () => record('POST', '/_emulator/clock/advance', { ms: 600_000 })

  // Templates until every design is some template slide's.
  const designsOf = new Map<string, string[]>()
  const covered = () => new Set([...designsOf.values()].flat())
  for (let count = 1; count <= 20 && SLIDE_DESIGNS.some((design) => !covered().has(design)); count++) {
    const created = await record('POST', '/_emulator/templates', { teamId: 'team_acme', name: `Deck of ${count}`, slideCount: count })
    expect(created.status).toBe(201)
    const template = (await state()).templates.find((t: { id: string }) => t.id === created.body.templateId)
    designsOf.set(
      created.body.templateId,
      template.slides.map((slide: { design: string }) => slide.design),
    )
  }
  expect(
    SLIDE_DESIGNS.filter((design) => !covered().has(design)),
    'designs no template of up to 20 slides has',
  ).toEqual([])

  // A deck from each template, and three from scratch.
  const jobs: Array<{ slug: string; templateId?: string }> = []
  for (const templateId of designsOf.keys()) {
    const generated = await record('POST', '/v1/projects/generate', { prompt: 'Quarterly results for the board', templateId })
    expect(generated.status).toBe(200)
    jobs.push({ slug: generated.body.projectSlug, templateId })
  }
  for (const prompt of ['A launch plan for a coffee brand', 'Onboarding for new engineers', 'Why tests should not sleep']) {
    const generated = await record('POST', '/v1/projects/generate', { prompt })
    expect(generated.status).toBe(200)
    jobs.push({ slug: generated.body.projectSlug })
  }
  expect((await advance()).status).toBe(200)

  const designs: Record<string, string> = {}
  const world = await state()
  for (const job of jobs) {
    const project = world.projects.find((p: { slug: string }) => p.slug === job.slug)
    const slides = world.slides
      .filter((s: { projectId: string }) => s.projectId === project.id)
      .sort((a: { position: number }, b: { position: number }) => a.position - b.position)
    expect(slides.length, job.slug).toBeGreaterThan(0)
    if (job.templateId !== undefined) {
      const templateDesigns = designsOf.get(job.templateId)!
      expect(slides.length).toBe(templateDesigns.length)
      slides.forEach((slide: { id: string }, index: number) => {
        designs[`${job.slug}/${slide.id}`] = templateDesigns[index]!
      })
    }
    for (const slide of slides) {
      // Every file kind as generated passes its check, one kind at a time.
      for (const [file, text] of Object.entries(slide.files as Record<string, string>)) {
        const put = await record('PUT', `/v1/projects/${job.slug}/slides/${slide.id}`, { files: { [file]: text } })
        expect(put.status, `${job.slug}/${slide.id} ${file}: ${JSON.stringify(put.body)}`).toBe(200)
        expect(put.body.files[file]).toBe(text)
      }
    }
  }
  // Hand-written files of each kind: refused naming the file, line and column, or accepted.
  const [first] = jobs
  const project = world.projects.find((p: { slug: string }) => p.slug === first!.slug)
  const slideId = world.slides.find((s: { projectId: string }) => s.projectId === project.id).id
  for (const { file, text, at } of EDGE_CASES) {
    const put = await record('PUT', `/v1/projects/${first!.slug}/slides/${slideId}`, { files: { [file]: text } })
    expect(put.status, text).toBe(at === null ? 200 : 400)
    if (at !== null) expect(put.body.hint, text).toContain(at)
  }
  return { designs, transcript, state: await state() }
}

let fromSources: Run
beforeAll(async () => {
  const emulator = createEmulator(OPTIONS)
  ;[fromSources] = await Promise.all([scenario(inProcess(emulator).call), ensureBuilt()])
  await emulator.close()
})
afterAll(() => killAll())

describe('generated content from the built bundles', () => {
  it('the sources generate every design, with files that pass their checks and content that follows the conventions', async () => {
    const schemas = await importDist<typeof import('../../src/schemas/index.js')>('dist/node/schemas.js')
    expect(new Set(Object.values(fromSources.designs))).toEqual(new Set(SLIDE_DESIGNS))
    for (const slide of fromSources.state.slides) {
      expect(schemas.SlideContent.safeParse(JSON.parse(slide.files['slide.content.json'])).error, slide.id).toBeUndefined()
      expect(schemas.SlideControls.safeParse(JSON.parse(slide.files['slide.controls.json'])).error, slide.id).toBeUndefined()
    }
  })

  it.concurrent.for([
    ['the Node bundle', 'dist/node/index.js'],
    ['the browser bundle', 'dist/browser/browser.js'],
  ])('%s generates and checks exactly as the sources do', async ([, path]) => {
    const bundle = await importDist<typeof import('../../src/index.js')>(path!)
    const target = inProcess(bundle.createEmulator(OPTIONS))
    try {
      const run = await scenario(target.call)
      expect(run.designs).toEqual(fromSources.designs)
      expect(run.transcript).toEqual(fromSources.transcript)
      expect(JSON.stringify(run.state)).toBe(JSON.stringify(fromSources.state))
    } finally {
      await target.close()
    }
  })

  it('the CLI bundle generates and checks exactly as the sources do', async ({ cli }) => {
    const target = overHttp(await cli.start(['--seed', '7', '--clock', 'manual', '--rate-limit', '0', '--public-url', ORIGIN, '--quiet']))
    const run = await scenario(target.call)
    expect(run.transcript).toEqual(fromSources.transcript)
    expect(JSON.stringify(run.state)).toBe(JSON.stringify(fromSources.state))
    await target.close()
  })
})
