/**
 * A walk's steps as plain data: what to do, with which inputs, on which of
 * the walk's projects (`p` picks one of them by index, modulo how many the
 * walk has made so far). Plain data, so a counterexample can be saved and
 * replayed (`--replay FILE`), and read by a person.
 */
import fc from 'fast-check'
import * as z from 'zod'

const p = z.int().min(0).max(1_000_000)
const walkName = z.string().min(1).max(150)

/**
 * A step, as a replay file holds it: the single source of the `WalkStep`
 * type, and what `--replay` checks a file against before running anything.
 */
export const WalkStepSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create'), name: walkName }),
  z.strictObject({ op: z.literal('copySlides') }),
  z.strictObject({ op: z.literal('rename'), p, name: walkName }),
  z.strictObject({ op: z.literal('renameInvalid'), p, length: z.union([z.literal(0), z.literal(192)]) }),
  z.strictObject({ op: z.literal('config'), p, patch: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal('configInvalid'), p, patch: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal('duplicate'), p }),
  z.strictObject({ op: z.literal('publish'), p }),
  z.strictObject({ op: z.literal('unpublish'), p }),
  z.strictObject({ op: z.literal('detail'), p }),
  z.strictObject({ op: z.literal('readConfig'), p }),
  z.strictObject({ op: z.literal('url'), p }),
  z.strictObject({ op: z.literal('list'), published: z.boolean().optional(), limit: z.int().min(1).max(100) }),
  z.strictObject({ op: z.literal('slides'), p }),
  z.strictObject({
    op: z.literal('updateSlide'),
    p,
    slide: p,
    file: z.enum(['slide.content.json', 'slide.controls.json']),
    text: z.string().max(10_000),
  }),
  z.strictObject({ op: z.literal('editing'), p, slide: p, on: z.boolean() }),
  z.strictObject({ op: z.literal('teams') }),
  z.strictObject({ op: z.literal('templates'), limit: z.int().min(1).max(100) }),
  z.strictObject({ op: z.literal('generate'), prompt: walkName }),
  z.strictObject({ op: z.literal('otherRead'), p }),
])

export type WalkStep = z.infer<typeof WalkStepSchema>

/** Where a schema issue is, as a person reads it: `steps[2].p`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('')
}

export type StepKind = WalkStep['op']

/** What a walk may do, from the target's flags. */
export interface WalkAllowance {
  writes: boolean
  generation: boolean
  otherTeamKey: boolean
}

const name = fc.constantFrom('Quarterly review', 'Launch plan', 'Board update', 'Roadmap', 'Team offsite', 'Hiring plan', 'Retrospective')
const pick = fc.nat({ max: 7 })

const PALETTE = fc.constantFrom('#1d4ed8', '#f59e0b', '#10b981', '#abc', '#11223344')
const patch = fc.oneof(
  fc.record({ layout: fc.constantFrom('REGULAR', 'CARD', 'SLIDES', 'SLIDESHOW', 'STACKED') }),
  fc.record({ width: fc.constantFrom('FULL', 'MEDIUM', 'COMPACT') }),
  fc.record({ cardsSlidesPerView: fc.constantFrom(0.5, 1, 1.5, 2) }),
  fc.record({ showBrandLogo: fc.boolean() }),
  fc.record({ layout: fc.constantFrom('CARD', 'SLIDES'), cardsCorners: fc.constantFrom('ROUND', 'SQUARE') }),
  fc.record({
    tokens: fc.record({
      palette: fc.array(fc.record({ name: fc.constantFrom('--brand', '--accent', '--ink'), value: PALETTE }), {
        minLength: 1,
        maxLength: 2,
      }),
    }),
  }),
  fc.record({ tokens: fc.record({ fonts: fc.constant([{ name: '--font-heading', family: 'Inter' }]) }) }),
)
const invalidPatch = fc.constantFrom<Record<string, unknown>>(
  { cardsSlidesPerView: 2.5 },
  { cardsSlidesPerView: 0.25 },
  { layout: 'GRID' },
  { tokens: { palette: [{ name: 'brand', value: '#123456' }] } },
  { tokens: { palette: [{ name: '--brand', value: '#12' }] } },
  { tokens: { fonts: [{ name: '--heading', family: 'Inter' }] } },
)
const text = fc.constantFrom(
  '{"title":"One","blocks":[]}',
  '{"title":"Two","blocks":[{"type":"text","text":"x"}]}',
  '{"controls":[]}',
  '[]',
)

/**
 * The arbitraries of every step the allowance permits, weighted toward what
 * finds sequence defects: writes interleaved with reads.
 */
export function stepArbitraries(allow: WalkAllowance): Array<fc.Arbitrary<WalkStep>> {
  const list = fc
    .record({ published: fc.option(fc.boolean(), { nil: undefined }), limit: fc.constantFrom(1, 2, 5, 100) })
    .map(({ published, limit }) =>
      published === undefined ? ({ op: 'list', limit } as const) : ({ op: 'list', published, limit } as const),
    )
  const reads: Array<fc.Arbitrary<WalkStep>> = [
    // Detail and list twice: most sequence defects show on a read after a write.
    pick.map((p) => ({ op: 'detail', p }) as const),
    pick.map((p) => ({ op: 'detail', p }) as const),
    list,
    list,
    pick.map((p) => ({ op: 'readConfig', p }) as const),
    pick.map((p) => ({ op: 'url', p }) as const),
    pick.map((p) => ({ op: 'slides', p }) as const),
    fc.constant({ op: 'teams' } as const),
    fc.constantFrom(1, 50).map((limit) => ({ op: 'templates', limit }) as const),
  ]
  if (!allow.writes) return reads
  const writes: Array<fc.Arbitrary<WalkStep>> = [
    name.map((n) => ({ op: 'create', name: n }) as const),
    name.map((n) => ({ op: 'create', name: n }) as const),
    fc.constant({ op: 'copySlides' } as const),
    fc.record({ p: pick, name }).map(({ p, name: n }) => ({ op: 'rename', p, name: `${n} v2` }) as const),
    fc
      .record({ p: pick, length: fc.constantFrom(0 as const, 192 as const) })
      .map(({ p, length }) => ({ op: 'renameInvalid', p, length }) as const),
    fc.record({ p: pick, patch }).map(({ p, patch: c }) => ({ op: 'config', p, patch: c }) as const),
    fc.record({ p: pick, patch }).map(({ p, patch: c }) => ({ op: 'config', p, patch: c }) as const),
    fc.record({ p: pick, patch: invalidPatch }).map(({ p, patch: c }) => ({ op: 'configInvalid', p, patch: c }) as const),
    pick.map((p) => ({ op: 'duplicate', p }) as const),
    pick.map((p) => ({ op: 'publish', p }) as const),
    pick.map((p) => ({ op: 'unpublish', p }) as const),
    fc
      .record({
        p: pick,
        slide: fc.nat({ max: 3 }),
        file: fc.constantFrom('slide.content.json' as const, 'slide.controls.json' as const),
        text,
      })
      .map((s) => ({ op: 'updateSlide', ...s }) as const),
    fc.record({ p: pick, slide: fc.nat({ max: 3 }), on: fc.boolean() }).map((s) => ({ op: 'editing', ...s }) as const),
  ]
  const extra: Array<fc.Arbitrary<WalkStep>> = []
  if (allow.generation)
    extra.push(
      fc.constantFrom('A short deck about tides', 'Three slides on compost').map((prompt) => ({ op: 'generate', prompt }) as const),
    )
  if (allow.otherTeamKey) extra.push(pick.map((p) => ({ op: 'otherRead', p }) as const))
  return [...reads, ...writes, ...writes, ...extra]
}

/** A step as a person reads it: `rename #1 "Roadmap v2"`. */
export function describeStep(step: WalkStep): string {
  const p = 'p' in step ? ` #${step.p}` : ''
  switch (step.op) {
    case 'create':
      return `create "${step.name}"`
    case 'copySlides':
      return 'copy a project with slides'
    case 'rename':
      return `rename${p} "${step.name}"`
    case 'renameInvalid':
      return `rename${p} to a ${step.length}-character name`
    case 'config':
    case 'configInvalid':
      return `${step.op === 'config' ? 'merge config' : 'merge invalid config'}${p} ${JSON.stringify(step.patch)}`
    case 'list':
      return `list${step.published === undefined ? '' : ` published=${step.published}`} (limit ${step.limit})`
    case 'updateSlide':
      return `update slide ${step.slide} of${p}: ${step.file}`
    case 'editing':
      return `editing ${step.on ? 'on' : 'off'} on slide ${step.slide} of${p}`
    case 'templates':
      return `templates (limit ${step.limit})`
    case 'generate':
      return `generate "${step.prompt}"`
    case 'otherRead':
      return `another team reads${p}`
    default:
      return `${step.op}${p}`
  }
}
