/**
 * A walk's steps as plain data: what to do, with which inputs, on which of
 * the walk's projects. Plain data, so a counterexample can be saved and
 * replayed (`--replay FILE`), and read by a person.
 *
 * A step names its project by `p`: a number picks one of the walk's
 * projects by index, in the order they were made (modulo how many it has;
 * a slide step on a project without slides does not run), or a word names one by how it relates to the project the
 * step before acted on (the *focus*): `prev` is the focus itself, `last` the
 * project made last, `twin` the focus's latest duplicate, or its source when
 * it has none. So a generated sequence can read a project right after a
 * write to a related one, which is where sequence defects show.
 */
import fc from 'fast-check'
import * as z from 'zod'
import { COLORS } from '../scenarios/config.js'

const index = z.int().min(0).max(1_000_000)
const ref = z.union([index, z.enum(['prev', 'last', 'twin'])])
const walkName = z.string().min(1).max(150)

/**
 * A step, as a replay file holds it: the single source of the `WalkStep`
 * type, and what `--replay` checks a file against before running anything.
 */
export const WalkStepSchema = z.discriminatedUnion('op', [
  z.strictObject({ op: z.literal('create'), name: walkName }),
  z.strictObject({ op: z.literal('copySlides') }),
  z.strictObject({ op: z.literal('rename'), p: ref, name: walkName }),
  z.strictObject({ op: z.literal('renameInvalid'), p: ref, length: z.union([z.literal(0), z.literal(192)]) }),
  z.strictObject({ op: z.literal('config'), p: ref, patch: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal('configInvalid'), p: ref, patch: z.record(z.string(), z.unknown()) }),
  z.strictObject({ op: z.literal('duplicate'), p: ref }),
  z.strictObject({ op: z.literal('publish'), p: ref }),
  z.strictObject({ op: z.literal('unpublish'), p: ref }),
  z.strictObject({ op: z.literal('detail'), p: ref }),
  z.strictObject({ op: z.literal('look'), p: ref }),
  z.strictObject({ op: z.literal('readConfig'), p: ref }),
  z.strictObject({ op: z.literal('url'), p: ref }),
  z.strictObject({ op: z.literal('list'), published: z.boolean().optional(), limit: z.int().min(1).max(100) }),
  z.strictObject({ op: z.literal('slides'), p: ref }),
  z.strictObject({
    op: z.literal('updateSlide'),
    p: ref,
    slide: index,
    file: z.enum(['slide.content.json', 'slide.controls.json']),
    text: z.string().max(10_000),
  }),
  z.strictObject({ op: z.literal('editing'), p: ref, slide: index, on: z.boolean() }),
  z.strictObject({ op: z.literal('teams') }),
  z.strictObject({ op: z.literal('templates'), limit: z.int().min(1).max(100) }),
  z.strictObject({ op: z.literal('generate'), prompt: walkName }),
  z.strictObject({ op: z.literal('otherRead'), p: ref }),
])

export type WalkStep = z.infer<typeof WalkStepSchema>
export type Ref = z.infer<typeof ref>
export type StepKind = WalkStep['op']

/** Steps that act on slides: they run only on a project with slides. */
export const SLIDE_STEPS: ReadonlySet<StepKind> = new Set(['updateSlide', 'editing'])

/** Where a schema issue is, as a person reads it: `steps[2].p`. */
export function issuePath(path: readonly PropertyKey[]): string {
  return path.map((part, i) => (typeof part === 'number' ? `[${part}]` : `${i === 0 ? '' : '.'}${String(part)}`)).join('')
}

/** What a walk may do, from the target's flags. */
export interface WalkAllowance {
  writes: boolean
  generation: boolean
  otherTeamKey: boolean
}

const NAMES = ['Quarterly review', 'Launch plan', 'Board update', 'Roadmap', 'Team offsite', 'Hiring plan', 'Retrospective']
const name = fc.constantFrom(...NAMES)
const pick = fc.nat({ max: 7 })
const anyRef: fc.Arbitrary<Ref> = fc.oneof(
  { weight: 3, arbitrary: pick },
  { weight: 2, arbitrary: fc.constantFrom<Ref>('prev', 'last', 'twin') },
)

const PALETTE = fc.constantFrom('#1d4ed8', '#f59e0b', '#10b981', '#abc', '#11223344')
/** Patches of top-level scalar keys, and of an object key (tokens): merges go wrong between the two. */
const scalarPatch = fc.oneof(
  fc.record({ layout: fc.constantFrom('REGULAR', 'CARD', 'SLIDES', 'SLIDESHOW', 'STACKED') }),
  fc.record({ width: fc.constantFrom('FULL', 'MEDIUM', 'COMPACT') }),
  fc.record({ cardsSlidesPerView: fc.constantFrom(0.5, 1, 1.5, 2) }),
  fc.record({ showBrandLogo: fc.boolean() }),
  fc.record({ layout: fc.constantFrom('CARD', 'SLIDES'), cardsCorners: fc.constantFrom('ROUND', 'SQUARE') }),
)
const objectPatch = fc.oneof(
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
const patch = fc.oneof({ weight: 5, arbitrary: scalarPatch }, { weight: 2, arbitrary: objectPatch })

/** A theme with what the spec requires (fontFamily, radius, colors.default), and a radius of its own. */
const baseTheme = fc
  .constantFrom('0.25rem', '0.5rem', '1rem')
  .map((radius) => ({ fontFamily: 'Inter', radius, colors: { default: COLORS } }))
/** The same theme with some of its optional parts: a heading font, dark colours, a chart colour. */
const fullerTheme = fc
  .tuple(baseTheme, fc.boolean(), fc.boolean(), fc.boolean())
  .filter(([, heading, dark, chart]) => heading || dark || chart)
  .map(([theme, heading, dark, chart]) => ({
    ...theme,
    ...(heading ? { headingFontFamily: 'Georgia' } : {}),
    colors: { default: chart ? { ...COLORS, 'chart-1': '#000000' } : COLORS, ...(dark ? { dark: COLORS } : {}) },
  }))
/**
 * Two patches of one nested object, the second leaving out what the first
 * set: theme (optional parts, then none) or tokens (palette, then fonts, or
 * the other way round). What a read shows then tells a merge that goes deeper
 * than the server's own rule from one that replaces the object.
 */
const sameObjectPatches: fc.Arbitrary<[Record<string, unknown>, Record<string, unknown>]> = fc.oneof(
  fc.tuple(fullerTheme, baseTheme).map(([a, b]): [Record<string, unknown>, Record<string, unknown>] => [{ theme: a }, { theme: b }]),
  fc
    .tuple(objectPatch, objectPatch)
    .filter(([a, b]) => Object.keys((a as { tokens: object }).tokens)[0] !== Object.keys((b as { tokens: object }).tokens)[0]),
)
const invalidPatch = fc.constantFrom<Record<string, unknown>>(
  { cardsSlidesPerView: 2.5 },
  { cardsSlidesPerView: 0.25 },
  { layout: 'GRID' },
  { tokens: { palette: [{ name: 'brand', value: '#123456' }] } },
  { tokens: { palette: [{ name: '--brand', value: '#12' }] } },
  { tokens: { fonts: [{ name: '--heading', family: 'Inter' }] } },
)
const CONTENT = ['{"title":"One","blocks":[]}', '{"title":"Two","blocks":[{"type":"text","text":"x"}]}', '{"title":"Three","blocks":[]}']
const CONTROLS = ['{"controls":[]}', '[]', '{"controls":[{"name":"accent","type":"color","default":"#000000"}]}']
const FILES = ['slide.content.json', 'slide.controls.json'] as const
type SlideFileName = (typeof FILES)[number]
const textOf = (file: SlideFileName) => fc.constantFrom(...(file === 'slide.content.json' ? CONTENT : CONTROLS))
const file = fc.constantFrom(...FILES)
const slide = fc.nat({ max: 3 })
const list = fc
  .record({ published: fc.option(fc.boolean(), { nil: undefined }), limit: fc.constantFrom(1, 2, 5, 100) })
  .map(({ published, limit }): WalkStep => (published === undefined ? { op: 'list', limit } : { op: 'list', published, limit }))

function updateSlide(p: Ref, at: fc.Arbitrary<number> = slide, which: fc.Arbitrary<SlideFileName> = file): fc.Arbitrary<WalkStep> {
  return fc
    .record({ slide: at, file: which })
    .chain(({ slide: s, file: f }) => textOf(f).map((text): WalkStep => ({ op: 'updateSlide', p, slide: s, file: f, text })))
}

type WriteKind = 'rename' | 'config' | 'publish' | 'unpublish' | 'updateSlide'
const WRITES: readonly WriteKind[] = ['rename', 'config', 'publish', 'unpublish', 'updateSlide']

/** A write of `kind` on the project `at` names. */
function write(kind: WriteKind, at: Ref): fc.Arbitrary<WalkStep> {
  switch (kind) {
    case 'rename':
      return name.map((n): WalkStep => ({ op: 'rename', p: at, name: `${n} v2` }))
    case 'config':
      return patch.map((c): WalkStep => ({ op: 'config', p: at, patch: c }))
    case 'publish':
    case 'unpublish':
      return fc.constant<WalkStep>({ op: kind, p: at })
    case 'updateSlide':
      return updateSlide(at)
  }
}

/** Any write on the project `p` names. */
function writeOn(p: fc.Arbitrary<Ref>): fc.Arbitrary<WalkStep> {
  return fc.tuple(fc.constantFrom(...WRITES), p).chain(([kind, at]) => write(kind, at))
}

/**
 * A read of the project `at` names that would show what a write of `kind`
 * changed (or wrongly changed): `look` (detail, config and URL) after most
 * writes, the list after a rename or a publication change, the next update
 * of the same slide after a slide update.
 */
function readAfter(kind: WriteKind | 'duplicate', at: Ref, allow: WalkAllowance, after?: WalkStep): fc.Arbitrary<WalkStep> {
  const look = fc.constant<WalkStep>({ op: 'look', p: at })
  const other = allow.otherTeamKey ? 1 : 0
  switch (kind) {
    case 'rename':
      return fc.oneof({ weight: 3, arbitrary: look }, { weight: 2, arbitrary: list })
    case 'publish':
    case 'unpublish':
      return fc.oneof(
        { weight: 2, arbitrary: look },
        { weight: 2, arbitrary: list },
        { weight: 1, arbitrary: fc.constant<WalkStep>({ op: 'url', p: at }) },
        { weight: other, arbitrary: fc.constant<WalkStep>({ op: 'otherRead', p: at }) },
      )
    case 'updateSlide': {
      // The same slide again, through another file: the answer shows whether the first write was kept.
      const again =
        after?.op === 'updateSlide'
          ? fc
              .constant(after.file === FILES[0] ? FILES[1] : FILES[0])
              .chain((f) => updateSlide(at, fc.constant(after.slide), fc.constant(f)))
          : updateSlide(at)
      return fc.oneof(
        { weight: 3, arbitrary: again },
        { weight: 1, arbitrary: fc.constant<WalkStep>({ op: 'slides', p: at }) },
        { weight: 1, arbitrary: look },
      )
    }
    case 'duplicate':
      return fc.oneof(
        { weight: 3, arbitrary: look },
        { weight: 1, arbitrary: fc.constant<WalkStep>({ op: 'url', p: at }) },
        { weight: 1, arbitrary: fc.constant<WalkStep>({ op: 'slides', p: at }) },
        { weight: 1, arbitrary: list },
      )
    default:
      return fc.oneof({ weight: 4, arbitrary: look }, { weight: 1, arbitrary: list })
  }
}

/**
 * Motifs: short sequences aimed at the places sequence defects hide, each
 * ending with a read that would show the defect.
 * - writes to one project, then a read of it: one write, two (of any kinds),
 *   or the same kind twice (a second rename, a republish);
 * - two config patches of one nested object (theme, tokens), the second
 *   leaving out what the first set, then the config read;
 * - a duplicate, a write to one of the pair, a read of the other (the source
 *   after its duplicate is edited, and the other way round), sometimes after a
 *   first write to the source (so the copy inherits something to get wrong);
 * - a read, a write, the same read (what a cache would keep);
 * - publish, unpublish, publish again;
 * - the same slide of a project and its duplicate: learnt, copied, written on
 *   both (whether they share their files).
 *
 * Each has a name, a weight among the random ones, and a form the walk
 * schedules (`motifSchedule`): one run each at the start of a walk, so every
 * motif appears within a default-sized walk at any seed, not by its luck.
 */
export interface Motif {
  name: string
  weight: number
  arbitrary: fc.Arbitrary<WalkStep[]>
  /** The form a scheduled run uses, when not every sample would run whole (a slide motif starts from a project with slides). */
  scheduled?: fc.Arbitrary<WalkStep[]>
}

export function motifs(allow: WalkAllowance): Motif[] {
  const kind = fc.constantFrom(...WRITES)
  const oneWrite = fc.tuple(kind, anyRef).chain(([k, at]) => write(k, at).chain((w) => readAfter(k, 'prev', allow, w).map((r) => [w, r])))
  const twoWrites = fc
    .tuple(kind, kind, anyRef, fc.boolean())
    .chain(([k1, k2, at, readFirst]) =>
      fc
        .tuple(write(k1, at), write(k2, 'prev'))
        .chain(([w1, w2]) => readAfter(readFirst ? k1 : k2, 'prev', allow, readFirst ? w1 : w2).map((r) => [w1, w2, r])),
    )
  // The same kind of write twice: a second rename, a republish, a second update of the same slide, and a merge
  // of a scalar key followed by one of an object key.
  const sameTwice = fc
    .tuple(kind, anyRef)
    .chain(([k, at]) =>
      k === 'config'
        ? fc
            .tuple(scalarPatch, objectPatch, readAfter(k, 'prev', allow))
            .map(([a, b, r]): WalkStep[] => [{ op: 'config', p: at, patch: a }, { op: 'config', p: 'prev', patch: b }, r])
        : write(k, at).chain((w1) =>
            (k === 'updateSlide' ? readAfter(k, 'prev', allow, w1) : write(k, 'prev')).chain((w2) =>
              readAfter(k, 'prev', allow, w1).map((r) => [w1, w2, r]),
            ),
          ),
    )
  // Two patches of one nested object on one project, then its config read.
  const sameObject = fc.tuple(sameObjectPatches, anyRef).map(([[a, b], at]): WalkStep[] => [
    { op: 'config', p: at, patch: a },
    { op: 'config', p: 'prev', patch: b },
    { op: 'readConfig', p: 'prev' },
  ])
  const related = fc
    .tuple(fc.option(kind, { nil: undefined, freq: 2 }), kind, fc.constantFrom<Ref>('last', 'twin'), anyRef, fc.boolean())
    .chain(([first, k, on, at, lookAtCopy]) =>
      fc.tuple(first === undefined ? fc.constant(undefined) : write(first, at), write(k, on)).chain(([w0, w]) =>
        readAfter(k, 'twin', allow, w).map((r): WalkStep[] => [
          ...(w0 === undefined ? [] : [w0]),
          { op: 'duplicate', p: w0 === undefined ? at : 'prev' },
          // Sometimes the copy is looked at first, so what it inherited is known before the write.
          ...(lookAtCopy ? [{ op: 'look', p: 'last' } as const] : []),
          w,
          r,
        ]),
      ),
    )
  // Around a write, the same read twice: what a cache would keep. The list's variant writes what the list shows.
  const listed = fc.constantFrom<WriteKind>('rename', 'publish', 'unpublish')
  const cached = fc
    .tuple(fc.boolean(), anyRef)
    .chain(([viaList, at]) =>
      viaList
        ? fc.tuple(listed, list).chain(([k, l]) => write(k, at).map((w): WalkStep[] => [l, w, l]))
        : kind.chain((k) => write(k, 'prev').map((w): WalkStep[] => [{ op: 'look', p: at }, w, { op: 'look', p: 'prev' }])),
    )
  const republish = fc
    .tuple(anyRef, fc.boolean())
    .chain(([at, thrice]) =>
      readAfter('publish', 'prev', allow).map((r): WalkStep[] => [
        { op: 'publish', p: at },
        ...(thrice ? [{ op: 'unpublish', p: 'prev' } as const] : []),
        { op: 'publish', p: 'prev' },
        r,
      ]),
    )
  const sameSlideOf = (freshness: fc.Arbitrary<boolean>) =>
    fc
      .record({ s: slide, first: file, fresh: freshness })
      .chain(({ s, first, fresh }) =>
        fc
          .tuple(
            updateSlide(fresh ? 'last' : 'prev', fc.constant(s), fc.constant(first)),
            updateSlide('last', fc.constant(s), fc.constant(first)),
            updateSlide('twin', fc.constant(s), fc.constant(first === FILES[0] ? FILES[1] : FILES[0])),
          )
          .map(([a, b, c]): WalkStep[] => [...(fresh ? [{ op: 'copySlides' } as const] : []), a, { op: 'duplicate', p: 'prev' }, b, c]),
      )
  return [
    { name: 'one write, then a read', weight: 2, arbitrary: oneWrite },
    { name: 'two writes to one project, then a read', weight: 4, arbitrary: twoWrites },
    { name: 'the same kind of write twice', weight: 2, arbitrary: sameTwice },
    { name: 'two config patches of one nested object', weight: 2, arbitrary: sameObject },
    { name: 'a duplicate, a write to one of the pair, a read of the other', weight: 4, arbitrary: related },
    { name: 'a read, a write, the same read', weight: 2, arbitrary: cached },
    { name: 'publish, unpublish, publish again', weight: 1, arbitrary: republish },
    {
      name: 'the same slide of a project and its duplicate',
      weight: 2,
      arbitrary: sameSlideOf(fc.boolean()),
      // A scheduled run starts with one project without slides: the motif copies one with slides first.
      scheduled: sameSlideOf(fc.constant(true)),
    },
  ]
}

/** The motifs as weighted arbitraries, for the random part of a walk. */
export function motifArbitraries(allow: WalkAllowance): Array<fc.WeightedArbitrary<WalkStep[]>> {
  return motifs(allow).map(({ weight, arbitrary }) => ({ weight, arbitrary }))
}

/**
 * One sample of every motif, drawn from `seed`: the walk runs the i-th as
 * the first sequence of its i-th run, so each motif appears within the first
 * runs of a walk at any seed. Empty without writes (every motif writes).
 */
export function motifSchedule(allow: WalkAllowance, seed: number): Array<{ name: string; steps: WalkStep[] }> {
  if (!allow.writes) return []
  return motifs(allow).map((motif, i) => ({
    name: motif.name,
    steps: fc.sample(motif.scheduled ?? motif.arbitrary, { seed: (seed + i * 7919) | 0, numRuns: 1 })[0]!,
  }))
}

/**
 * The arbitraries of single steps the allowance permits, weighted toward
 * what finds sequence defects: writes interleaved with reads.
 */
export function stepArbitraries(allow: WalkAllowance): Array<fc.Arbitrary<WalkStep>> {
  const reads: Array<fc.Arbitrary<WalkStep>> = [
    // Detail and list twice: most sequence defects show on a read after a write.
    anyRef.map((p): WalkStep => ({ op: 'detail', p })),
    anyRef.map((p): WalkStep => ({ op: 'detail', p })),
    list,
    list,
    anyRef.map((p): WalkStep => ({ op: 'readConfig', p })),
    anyRef.map((p): WalkStep => ({ op: 'look', p })),
    anyRef.map((p): WalkStep => ({ op: 'url', p })),
    anyRef.map((p): WalkStep => ({ op: 'slides', p })),
    fc.constant<WalkStep>({ op: 'teams' }),
    fc.constantFrom(1, 50).map((limit): WalkStep => ({ op: 'templates', limit })),
  ]
  if (!allow.writes) return reads
  const writes: Array<fc.Arbitrary<WalkStep>> = [
    name.map((n): WalkStep => ({ op: 'create', name: n })),
    fc.constant<WalkStep>({ op: 'copySlides' }),
    fc
      .record({ p: anyRef, length: fc.constantFrom(0 as const, 192 as const) })
      .map(({ p, length }): WalkStep => ({ op: 'renameInvalid', p, length })),
    fc.record({ p: anyRef, patch: invalidPatch }).map(({ p, patch: c }): WalkStep => ({ op: 'configInvalid', p, patch: c })),
    anyRef.map((p): WalkStep => ({ op: 'duplicate', p })),
    writeOn(anyRef),
    writeOn(anyRef),
    fc.record({ p: anyRef, slide, on: fc.boolean() }).map((s): WalkStep => ({ op: 'editing', ...s })),
  ]
  const extra: Array<fc.Arbitrary<WalkStep>> = []
  if (allow.generation)
    extra.push(
      fc.constantFrom('A short deck about tides', 'Three slides on compost').map((prompt): WalkStep => ({ op: 'generate', prompt })),
    )
  if (allow.otherTeamKey) extra.push(anyRef.map((p): WalkStep => ({ op: 'otherRead', p })))
  return [...reads, ...writes, ...extra]
}

/** Every element a walk's sequence is made of: single steps and motifs (about half each, by weight). */
export function sequenceArbitrary(allow: WalkAllowance): fc.Arbitrary<WalkStep[]> {
  const singles = stepArbitraries(allow).map((arb) => arb.map((step) => [step]))
  if (!allow.writes) return fc.oneof(...singles)
  return fc.oneof({ weight: 1, arbitrary: fc.oneof(...singles) }, { weight: 3, arbitrary: fc.oneof(...motifArbitraries(allow)) })
}

const refText = (p: Ref) =>
  typeof p === 'number' ? `#${p}` : p === 'prev' ? 'the same project' : p === 'last' ? 'the newest project' : 'its twin'

/** A step as a person reads it: `rename #1 "Roadmap v2"`, `detail of its twin`. */
export function describeStep(step: WalkStep): string {
  const p = 'p' in step ? ` ${refText(step.p)}` : ''
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
    case 'look':
      return `look at${p} (detail, config and URL)`
    default:
      return `${step.op}${p}`
  }
}
