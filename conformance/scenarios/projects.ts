/** Creating, renaming and duplicating projects. */
import { Clauses, endpoint } from '../clauses.js'
import { createProject, needs, projectWithSlides, scenario } from './support.js'

const CREATE = endpoint('createProject')
const RENAME = endpoint('renameProject')
const DUPLICATE = endpoint('duplicateProject')

export const projectScenarios = [
  scenario({
    id: 'projects.create',
    title: 'POST /projects creates an empty project that detail then shows',
    needs: needs('writes'),
    covers: [
      ['createProject', 200],
      ['getProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const name = ctx.name('create')
      const exchange = await ctx.call(main, 'createProject', { body: { name } })
      const created = ctx.expectOk<'createProject'>(exchange)
      ctx.created(created.projectSlug)
      const detail = await ctx.ok(main, 'getProject', { params: { slug: created.projectSlug } })
      ctx.equal('MUST', CREATE, 'the new project has the name given', detail.name, name)
      ctx.equal('MUST', CREATE, 'detail’s id is the projectId create answered', detail.id, created.projectId)
      ctx.must(Clauses.publication, 'a new project starts unpublished', detail.publishedAt === null && detail.publishedUrl === null, {
        actual: { publishedAt: detail.publishedAt, publishedUrl: detail.publishedUrl },
      })
      ctx.equal(
        'MUST',
        Clauses.versioning,
        'latestVersion is the projectVersionId create answered',
        detail.latestVersion?.id,
        created.projectVersionId,
      )
      ctx.equal('SHOULD', CREATE, 'detail’s editorUrl is the one create answered', detail.editorUrl, created.editorUrl)

      // The spec's default name: checked, then the project gets the run's prefix when the scenario ends.
      const untitled = await ctx.call(main, 'createProject')
      const body = ctx.expectOk<'createProject'>(untitled)
      ctx.created(body.projectSlug, { actor: main, purpose: 'created without a body' })
      const named = await ctx.ok(main, 'getProject', { params: { slug: body.projectSlug } })
      ctx.equal('MUST', CREATE, 'a project created without a body is named Untitled', named.name, 'Untitled')
    },
  }),
  scenario({
    id: 'projects.create-bounds',
    title: 'A project name on create is 1 to 200 characters',
    needs: needs('writes'),
    covers: [
      ['createProject', 200],
      ['createProject', 400],
      ['getProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      for (const name of ['', 'x'.repeat(201)]) {
        ctx.expectError(await ctx.call(main, 'createProject', { body: { name } }), 400, Clauses.limits)
      }
      ctx.expectError(await ctx.send(main, { operationId: 'createProject', body: { name: 42 } }), 400, CREATE)
      const one = await ctx.call(main, 'createProject', { body: { name: 'x' } })
      if (ctx.expectStatus(one, 200, Clauses.limits))
        ctx.created((one.json as { projectSlug?: string }).projectSlug, { actor: main, purpose: 'one-character name' })
      const max = ctx.name('max').padEnd(200, 'x')
      const longest = await ctx.call(main, 'createProject', { body: { name: max } })
      if (ctx.expectStatus(longest, 200, Clauses.limits)) {
        const slug = (longest.json as { projectSlug: string }).projectSlug
        ctx.created(slug)
        const detail = await ctx.ok(main, 'getProject', { params: { slug } })
        ctx.equal('MUST', CREATE, 'a 200-character name is kept whole', detail.name, max)
      }
    },
  }),
  scenario({
    id: 'projects.rename',
    title: 'A rename changes the name and keeps the slug and the URLs',
    needs: needs('writes'),
    covers: [
      ['renameProject', 200],
      ['publishProject', 200],
      ['getProjectUrl', 200],
      ['createProject', 200],
      ['getProject', 200],
      ['unpublishProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const project = await createProject(ctx, main, 'rename')
      const slug = project.slug
      await ctx.ok(main, 'publishProject', { params: { slug } })
      const before = await ctx.ok(main, 'getProject', { params: { slug } })
      const urlBefore = await ctx.ok(main, 'getProjectUrl', { params: { slug } })
      for (const [round, name] of [ctx.name('renamed once'), ctx.name('renamed twice')].entries()) {
        const exchange = await ctx.call(main, 'renameProject', { params: { slug }, body: { name } })
        const answer = ctx.expectOk<'renameProject'>(exchange)
        ctx.equal('MUST', RENAME, 'the rename answers success: true', answer.success, true, exchange)
        ctx.equal('MUST', RENAME, 'the rename answers the new name', answer.name, name, exchange)
        const after = await ctx.call(main, 'getProject', { params: { slug } })
        const which = round === 0 ? 'a rename' : 'a second rename'
        if (!ctx.expectStatus(after, 200, RENAME)) ctx.abort(`after ${which}, the project is no longer at its slug`)
        const detail = ctx.expectOk<'getProject'>(after)
        ctx.equal('MUST', RENAME, `${which} changes the name`, detail.name, name, after)
        ctx.equal('MUST', RENAME, `${which} keeps the slug`, detail.slug, before.slug, after)
        ctx.equal('MUST', RENAME, `${which} keeps editorUrl`, detail.editorUrl, before.editorUrl, after)
        ctx.equal('MUST', RENAME, `${which} keeps publishedUrl`, detail.publishedUrl, before.publishedUrl, after)
        const url = await ctx.ok(main, 'getProjectUrl', { params: { slug } })
        ctx.equal(
          'MUST',
          RENAME,
          `${which} keeps the live URL (current hostname and path)`,
          [url.current.hostname, url.current.path],
          [urlBefore.current.hostname, urlBefore.current.path],
        )
      }
      await ctx.ok(main, 'unpublishProject', { params: { slug } })
    },
  }),
  scenario({
    id: 'projects.rename-bounds',
    title: 'A name on rename is 1 to 191 characters; a refused rename changes nothing',
    needs: needs('writes'),
    covers: [
      ['renameProject', 400],
      ['renameProject', 200],
      ['createProject', 200],
      ['getProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'rename bounds')
      const original = (await ctx.ok(main, 'getProject', { params: { slug } })).name
      for (const name of ['', 'x'.repeat(192)])
        ctx.expectError(await ctx.call(main, 'renameProject', { params: { slug }, body: { name } }), 400, Clauses.limits)
      ctx.expectError(await ctx.send(main, { operationId: 'renameProject', params: { slug }, body: {} }), 400, RENAME)
      ctx.expectError(await ctx.send(main, { operationId: 'renameProject', params: { slug }, body: { name: 7 } }), 400, RENAME)
      const unchanged = await ctx.ok(main, 'getProject', { params: { slug } })
      ctx.equal('MUST', Clauses.errors, 'a refused rename leaves the name as it was', unchanged.name, original)
      // The one-character name first, so the project ends under the 191-character name, which carries the run's prefix.
      ctx.expectOk(await ctx.call(main, 'renameProject', { params: { slug }, body: { name: 'x' } }))
      const longest = ctx.name('longest').padEnd(191, 'y')
      ctx.expectOk(await ctx.call(main, 'renameProject', { params: { slug }, body: { name: longest } }))
      ctx.equal(
        'MUST',
        RENAME,
        'a 191-character name is kept whole',
        (await ctx.ok(main, 'getProject', { params: { slug } })).name,
        longest,
      )
    },
  }),
  scenario({
    id: 'projects.duplicate',
    title: 'A duplicate has its own slug, starts unpublished with a fresh URL, and has the same slides and config',
    needs: needs('writes'),
    covers: [
      ['duplicateProject', 200],
      ['updateProjectConfig', 200],
      ['listSlides', 200],
      ['createProject', 200],
      ['getProject', 200],
      ['renameProject', 200],
      ['getProjectConfig', 200],
      ['publishProject', 200],
      ['unpublishProject', 200],
      ['getProjectUrl', 200],
      ['createSlide', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const source = await projectWithSlides(ctx, main, 'duplicate source')
      const slug = source.slug
      await ctx.ok(main, 'updateProjectConfig', {
        params: { slug },
        body: { config: { layout: 'SLIDES', tokens: { palette: [{ name: '--conformance', value: '#123456' }], fonts: [] } } },
      })
      await ctx.ok(main, 'publishProject', { params: { slug } })
      const sourceDetail = await ctx.ok(main, 'getProject', { params: { slug } })
      const sourceConfig = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config
      const sourceUrl = await ctx.ok(main, 'getProjectUrl', { params: { slug } })

      const exchange = await ctx.call(main, 'duplicateProject', { params: { slug } })
      const copy = ctx.expectOk<'duplicateProject'>(exchange)
      ctx.created(copy.projectSlug, { actor: main, purpose: 'duplicate' })
      ctx.must(DUPLICATE, 'the copy has its own slug', copy.projectSlug !== slug, { actual: copy.projectSlug, exchange })
      ctx.must(DUPLICATE, 'the copy has its own id', copy.projectId !== sourceDetail.id, { actual: copy.projectId, exchange })
      const detail = await ctx.ok(main, 'getProject', { params: { slug: copy.projectSlug } })
      ctx.must(Clauses.publication, 'a duplicate starts unpublished', detail.publishedAt === null && detail.publishedUrl === null, {
        actual: { publishedAt: detail.publishedAt, publishedUrl: detail.publishedUrl },
      })
      const copyUrl = await ctx.ok(main, 'getProjectUrl', { params: { slug: copy.projectSlug } })
      ctx.must(
        Clauses.publication,
        'a duplicate has a fresh URL',
        `${copyUrl.current.hostname}${copyUrl.current.path}` !== `${sourceUrl.current.hostname}${sourceUrl.current.path}`,
        {
          actual: `${copyUrl.current.hostname}${copyUrl.current.path}`,
        },
      )
      const slides = await ctx.ok(main, 'listSlides', { params: { slug: copy.projectSlug } })
      ctx.equal(
        'MUST',
        DUPLICATE,
        'the copy has the same slides (names)',
        slides.slides.map((s) => s.name).sort(),
        source.slides.map((s) => s.name).sort(),
      )
      const copyConfig = (await ctx.ok(main, 'getProjectConfig', { params: { slug: copy.projectSlug } })).config
      ctx.equal('MUST', DUPLICATE, 'the copy has the same configuration', copyConfig, sourceConfig)

      // The copy is independent: changing it leaves the source alone.
      await ctx.ok(main, 'updateProjectConfig', { params: { slug: copy.projectSlug }, body: { config: { layout: 'CARD' } } })
      await ctx.ok(main, 'renameProject', { params: { slug: copy.projectSlug }, body: { name: ctx.name('renamed copy') } })
      const sourceAfter = await ctx.ok(main, 'getProjectConfig', { params: { slug } })
      ctx.equal(
        'MUST',
        DUPLICATE,
        'changing the copy’s config leaves the source’s as it was',
        sourceAfter.config.layout,
        sourceConfig.layout,
      )
      ctx.equal(
        'MUST',
        DUPLICATE,
        'renaming the copy leaves the source’s name',
        (await ctx.ok(main, 'getProject', { params: { slug } })).name,
        sourceDetail.name,
      )
      await ctx.ok(main, 'unpublishProject', { params: { slug } })
    },
  }),
]
