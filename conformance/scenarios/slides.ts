/** Slides: updating some of a slide's files, the version it makes, the editing indicator. */
import { Clauses, contract, endpoint } from '../clauses.js'
import { missingSlug, needs, projectWithSlides, scenario } from './support.js'

const UPDATE = endpoint('updateSlide')
const CHOICES = contract('§4 › choices for "not shown" items')

export const slideScenarios = [
  scenario({
    id: 'slides.update',
    title: 'Updating one file of a slide changes that file only and makes the project’s latest version',
    needs: needs('writes'),
    covers: [
      ['updateSlide', 200],
      ['listSlides', 200],
      ['createProject', 200],
      ['getProject', 200],
      ['createSlide', 200],
      ['updateSlide', 400],
      ['updateSlide', 404],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug, slides } = await projectWithSlides(ctx, main, 'slide update')
      const slideId = slides[0]!.id
      const content = JSON.stringify(
        { title: ctx.name('slide'), blocks: [{ type: 'text', text: 'Written by the conformance kit' }] },
        null,
        2,
      )
      const first = await ctx.call(main, 'updateSlide', { params: { slug, slideId }, body: { files: { 'slide.content.json': content } } })
      const one = ctx.expectOk<'updateSlide'>(first)
      ctx.equal('MUST', UPDATE, 'the answer names the slide updated', one.slideId, slideId, first)
      ctx.equal('SHOULD', UPDATE, 'the answer’s slide.content.json is the text sent', one.files['slide.content.json'], content, first)
      const detail = await ctx.ok(main, 'getProject', { params: { slug } })
      ctx.equal(
        'MUST',
        Clauses.versioning,
        'after a slide update, latestVersion.id is the versionId it answered',
        detail.latestVersion?.id,
        one.versionId,
      )

      const controls = JSON.stringify({ controls: [] })
      const second = await ctx.call(main, 'updateSlide', {
        params: { slug, slideId },
        body: { files: { 'slide.controls.json': controls } },
      })
      const two = ctx.expectOk<'updateSlide'>(second)
      ctx.equal(
        'MUST',
        UPDATE,
        'a file left out of the update (slide.content.json) is kept',
        two.files['slide.content.json'],
        one.files['slide.content.json'],
        second,
      )
      ctx.equal(
        'MUST',
        UPDATE,
        'a file left out of both updates (slide.tsx) is kept',
        two.files['slide.tsx'],
        one.files['slide.tsx'],
        second,
      )
      ctx.equal('SHOULD', UPDATE, 'the answer’s slide.controls.json is the text sent', two.files['slide.controls.json'], controls, second)
      ctx.must(Clauses.versioning, 'each slide update answers a new versionId', two.versionId !== one.versionId, {
        actual: two.versionId,
        exchange: second,
      })
      const after = await ctx.ok(main, 'listSlides', { params: { slug } })
      ctx.equal(
        'MUST',
        Clauses.slide,
        'updating files keeps the slide in the list',
        after.slides.map((s) => s.id).sort(),
        slides.map((s) => s.id).sort(),
      )

      // Malformed bodies (error statuses of this operation are not shown by the spec).
      ctx.expectError(
        await ctx.send(main, { operationId: 'updateSlide', params: { slug, slideId }, body: { files: 'not an object' } }),
        400,
        UPDATE,
        'SHOULD',
      )
      ctx.expectError(
        await ctx.send(main, {
          operationId: 'updateSlide',
          params: { slug, slideId: `conformance-missing-${ctx.rng.token(8)}` },
          body: { files: { 'slide.content.json': '{}' } },
        }),
        404,
        UPDATE,
        'SHOULD',
      )
      ctx.expectError(
        await ctx.send(main, {
          operationId: 'updateSlide',
          params: { slug: missingSlug(ctx), slideId },
          body: { files: { 'slide.content.json': '{}' } },
        }),
        404,
        UPDATE,
        'SHOULD',
      )
    },
  }),
  scenario({
    id: 'slides.editing',
    title: 'The editing indicator turns on and off',
    needs: needs('writes'),
    covers: [
      ['startSlideEditing', 200],
      ['stopSlideEditing', 200],
      ['createProject', 200],
      ['listSlides', 200],
      ['createSlide', 200],
      ['startSlideEditing', 400],
      ['startSlideEditing', 404],
      ['stopSlideEditing', 404],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug, slides } = await projectWithSlides(ctx, main, 'slide editing')
      const params = { slug, slideId: slides[0]!.id }
      for (let round = 0; round < 2; round++) {
        const on = await ctx.call(main, 'startSlideEditing', {
          params,
          body: { agentName: 'Conformance kit', editPrompt: 'Checking the indicator' },
        })
        ctx.equal(
          'MUST',
          endpoint('startSlideEditing'),
          'turning the indicator on answers success: true',
          ctx.expectOk<'startSlideEditing'>(on).success,
          true,
          on,
        )
        const off = await ctx.call(main, 'stopSlideEditing', { params })
        ctx.equal(
          'MUST',
          endpoint('stopSlideEditing'),
          'turning the indicator off answers success: true',
          ctx.expectOk<'stopSlideEditing'>(off).success,
          true,
          off,
        )
      }
      ctx.should(
        Clauses.editing,
        'the indicator leaves the slides as they were',
        (await ctx.ok(main, 'listSlides', { params: { slug } })).slides.length === slides.length,
      )
      // Error statuses of these operations are not shown by the spec: SHOULDs against a deployment. The emulator's
      // contract makes a missing slide 404 (§4, error statuses of slide operations): a MUST when it is the target.
      const missing = { slug, slideId: `conformance-missing-${ctx.rng.token(8)}` }
      const onEmulator = ctx.target.emulatorChecks
      const level = onEmulator ? 'MUST' : 'SHOULD'
      const clauseOf = (operationId: 'startSlideEditing' | 'stopSlideEditing') => (onEmulator ? CHOICES : endpoint(operationId))
      ctx.expectError(
        await ctx.send(main, {
          operationId: 'startSlideEditing',
          params: missing,
          body: { agentName: 'Conformance kit', editPrompt: 'A missing slide' },
        }),
        404,
        clauseOf('startSlideEditing'),
        level,
      )
      ctx.expectError(await ctx.send(main, { operationId: 'stopSlideEditing', params: missing }), 404, clauseOf('stopSlideEditing'), level)
      const wrongType = await ctx.send(main, {
        operationId: 'startSlideEditing',
        params,
        body: { agentName: 42, editPrompt: 'agentName is not a string' },
      })
      ctx.expectError(wrongType, 400, endpoint('startSlideEditing'), 'SHOULD')
      if (wrongType.status === 200) await ctx.call(main, 'stopSlideEditing', { params })
    },
  }),
]
