/**
 * Emulator checks: the choices `emulator-contract.md` §3–§4 makes where the
 * spec says "not shown". They run only against our emulator.
 */
import { contract } from '../../clauses.js'
import type { Actor } from '../../actors.js'
import type { ScenarioContext } from '../../context.js'
import type { Exchange } from '../../types.js'
import { COLORS, THEME } from '../config.js'
import { createProject, needs, scenario, walk } from '../support.js'

const CHOICES = contract('§4 › choices for "not shown" items')
const ACCESS = contract('§3 › access rules')

function code(exchange: Exchange): string | undefined {
  return exchange.headers['x-service-error-code']
}

function expectCode(ctx: ScenarioContext, exchange: Exchange, status: number, expected: string, what: string): void {
  ctx.equal('MUST', CHOICES, `${what}: ${status} ${expected}`, [exchange.status, code(exchange)], [status, expected], exchange)
}

const emulatorScenario = (definition: Parameters<typeof scenario>[0]) =>
  scenario({ kind: 'emulator', needs: needs('emulator', 'controlPlane'), ...definition })

async function withCredits(ctx: ScenarioContext, credits: number): Promise<Actor> {
  return ctx.freshAccount(`credits ${credits}`, credits)
}

export const choiceScenarios = [
  emulatorScenario({
    id: 'emulator.error-codes',
    title:
      'Every error has the contract’s X-Service-Error-Code; unknown paths 404, wrong methods 405 with Allow; 413 over 1 MiB; malformed JSON 400',
    async run(ctx) {
      const main = await ctx.main()
      await ctx.step(
        'API keys start with pres_; a validation error is 400 VALIDATION_ERROR, a key without the prefix 401 UNAUTHORIZED',
        async () => {
          ctx.must(CHOICES, 'API keys start with pres_', main.key.startsWith('pres_'), { actual: main.key.slice(0, 5) })
          expectCode(ctx, await ctx.call(main, 'createProject', { body: { name: '' } }), 400, 'VALIDATION_ERROR', 'a validation error')
          const noPrefix = await ctx.send(null, { operationId: 'listTeams', authorization: 'Bearer live_abc' })
          expectCode(ctx, noPrefix, 401, 'UNAUTHORIZED', 'a key without the prefix')
        },
      )
      await ctx.step('no credits is 402 INSUFFICIENT_CREDITS', async () => {
        const broke = await withCredits(ctx, 0)
        expectCode(ctx, await ctx.call(broke, 'generateProject', { body: { prompt: 'x' } }), 402, 'INSUFFICIENT_CREDITS', 'no credits')
      })
      await ctx.step(
        'a missing project and an unknown path are 404 NOT_FOUND; a known path with another method 405 with Allow',
        async () => {
          expectCode(
            ctx,
            await ctx.call(main, 'getProject', { params: { slug: 'conformance-nothing-here' } }),
            404,
            'NOT_FOUND',
            'a missing project',
          )
          const unknown = await ctx.send(main, { method: 'GET', path: '/conformance/unknown' })
          expectCode(ctx, unknown, 404, 'NOT_FOUND', 'an unknown path under /v1')
          const wrong = await ctx.send(main, { method: 'DELETE', path: '/teams' })
          expectCode(ctx, wrong, 405, 'METHOD_NOT_ALLOWED', 'a known path with another method')
          ctx.equal('MUST', CHOICES, 'a 405 says which methods are allowed', wrong.headers.allow, 'GET, HEAD', wrong)
        },
      )
      await ctx.step('a body over 1 MiB is 413 PAYLOAD_TOO_LARGE; malformed JSON 400 with a hint saying so', async () => {
        const { slug } = await createProject(ctx, main, 'big body')
        const big = await ctx.send(main, {
          operationId: 'updateProjectConfig',
          params: { slug },
          bodyText: JSON.stringify({ config: { cardsBackgroundImage: 'x'.repeat(1024 * 1024) } }),
        })
        expectCode(ctx, big, 413, 'PAYLOAD_TOO_LARGE', 'a body over 1 MiB')
        const malformed = await ctx.send(main, { operationId: 'renameProject', params: { slug }, bodyText: '{"name": ' })
        expectCode(ctx, malformed, 400, 'VALIDATION_ERROR', 'malformed JSON')
        ctx.must(
          CHOICES,
          'the hint of malformed JSON says the body is not valid JSON',
          /JSON/.test(String((malformed.json as { hint?: string })?.hint)),
          { actual: malformed.text, exchange: malformed },
        )
      })
      await ctx.step('a dispatch-error prompt is 502 DISPATCH_FAILED; an injected 500 is INTERNAL_ERROR', async () => {
        const dispatch = await ctx.call(main, 'generateProject', { body: { prompt: 'emulator:dispatch-error please' } })
        expectCode(ctx, dispatch, 502, 'DISPATCH_FAILED', 'a dispatch-error prompt')
        const { faultId } = await ctx.control.addFault({ operationId: 'listTeams', status: 500, apiKey: main.key })
        expectCode(ctx, await ctx.call(main, 'listTeams'), 500, 'INTERNAL_ERROR', 'an injected 500')
        await ctx.control.removeFault(faultId).catch(() => undefined)
      })
    },
  }),
  emulatorScenario({
    id: 'emulator.list-order',
    title: 'Projects list by updatedAt descending, then id; a malformed cursor, an out-of-range limit or a bad published is 400',
    // It reads the front of the list: on an account other scenarios share (a key given with --api-key), only alone.
    phase: 'quiet',
    async run(ctx) {
      const main = await ctx.main()
      await ctx.step('projects list by updatedAt descending, then id; a rename moves a project to the front', async () => {
        const made = []
        for (const name of ['a', 'b', 'c', 'd']) made.push(await createProject(ctx, main, `order ${name}`))
        await ctx.sleep(1000)
        await ctx.ok(main, 'renameProject', { params: { slug: made[1]!.slug }, body: { name: ctx.name('order b renamed') } })
        const { projects } = await ctx.ok(main, 'listProjects', { query: { limit: 100 } })
        const sorted = [...projects].sort((x, y) =>
          x.updatedAt === y.updatedAt ? (x.id < y.id ? -1 : 1) : x.updatedAt < y.updatedAt ? 1 : -1,
        )
        ctx.equal(
          'MUST',
          CHOICES,
          'list order is updatedAt descending, then id ascending',
          projects.map((p) => p.slug),
          sorted.map((p) => p.slug),
        )
        ctx.equal('MUST', CHOICES, 'a rename moves a project to the front', projects[0]?.slug, made[1]!.slug)
      })
      await ctx.step('a malformed cursor, an out-of-range limit or a bad published is 400 VALIDATION_ERROR', async () => {
        expectCode(
          ctx,
          await ctx.send(main, { operationId: 'listProjects', query: { cursor: 'not-a-cursor' } }),
          400,
          'VALIDATION_ERROR',
          'a malformed cursor',
        )
        expectCode(ctx, await ctx.send(main, { operationId: 'listProjects', query: { limit: 0 } }), 400, 'VALIDATION_ERROR', 'limit=0')
        expectCode(ctx, await ctx.send(main, { operationId: 'listProjects', query: { limit: 101 } }), 400, 'VALIDATION_ERROR', 'limit=101')
        expectCode(
          ctx,
          await ctx.send(main, { operationId: 'listProjects', query: { published: 'yes' } }),
          400,
          'VALIDATION_ERROR',
          'published=yes',
        )
        expectCode(
          ctx,
          await ctx.send(main, { operationId: 'listTemplates', query: { limit: 0 } }),
          400,
          'VALIDATION_ERROR',
          'templates limit=0',
        )
      })
    },
  }),
  emulatorScenario({
    id: 'emulator.keyset-cursors',
    title: 'Keyset cursors: projects created between pages neither skip nor repeat the others',
    // It walks the whole list: on an account other scenarios share (a key given with --api-key), only alone.
    phase: 'quiet',
    async run(ctx) {
      const main = await ctx.main()
      await ctx.step('a walk with an insert between pages lists every earlier project once, in order', async () => {
        for (let i = 0; i < 6; i++) await createProject(ctx, main, `keyset ${i}`)
        const before = await walk(ctx, main, 'listProjects', { limit: 100 })
        const first = await ctx.ok(main, 'listProjects', { query: { limit: 2 } })
        const inserted = await createProject(ctx, main, 'keyset inserted')
        const seen = [...first.projects]
        let cursor = first.nextCursor
        while (cursor !== undefined) {
          const page = await ctx.ok(main, 'listProjects', { query: { limit: 2, cursor } })
          seen.push(...page.projects)
          cursor = page.nextCursor
        }
        // The inserted project may show (after the cursor when it ties on updatedAt, as on a frozen manual clock), once at most.
        ctx.must(
          CHOICES,
          'the project inserted between pages is listed once at most',
          seen.filter((p) => p.id === inserted.id).length <= 1,
          {
            actual: seen.map((p) => p.id),
          },
        )
        ctx.equal(
          'MUST',
          CHOICES,
          'a walk with an insert between pages lists every earlier project once, in order',
          seen.filter((p) => p.id !== inserted.id).map((p) => p.id),
          before.items.map((p) => p.id),
        )
      })
    },
  }),
  emulatorScenario({
    id: 'emulator.config-merge',
    title: 'Config merge: top-level keys replace; theme and tokens are replaced whole; unknown keys are 400 and store nothing',
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'merge choices')
      await ctx.step('tokens are replaced as a whole (fonts default to empty)', async () => {
        await ctx.ok(main, 'updateProjectConfig', {
          params: { slug },
          body: { config: { tokens: { palette: [{ name: '--a', value: '#111' }], fonts: [{ name: '--font-a', family: 'A' }] } } },
        })
        const replaced = await ctx.ok(main, 'updateProjectConfig', {
          params: { slug },
          body: { config: { tokens: { palette: [{ name: '--b', value: '#222' }] } } },
        })
        ctx.equal('MUST', CHOICES, 'tokens are replaced as a whole (fonts default to empty)', replaced.config.tokens, {
          palette: [{ name: '--b', value: '#222' }],
          fonts: [],
        })
      })
      await ctx.step('theme is replaced as a whole (what the second theme leaves out is gone)', async () => {
        // The spec merges only the top level into what is stored; a deployment may merge deeper (a SHOULD nowhere),
        // but the contract replaces theme whole: a server that deep-merges it keeps the first theme's extras.
        const first = { ...THEME, headingFontFamily: 'Georgia', colors: { default: { ...COLORS, 'chart-1': '#000000' }, dark: COLORS } }
        await ctx.ok(main, 'updateProjectConfig', { params: { slug }, body: { config: { theme: first } } })
        const second = { ...THEME, radius: '1rem' }
        const replaced = await ctx.call(main, 'updateProjectConfig', { params: { slug }, body: { config: { theme: second } } })
        ctx.equal(
          'MUST',
          CHOICES,
          'the write answers theme replaced as a whole',
          ctx.expectOk<'updateProjectConfig'>(replaced).config.theme,
          second,
          replaced,
        )
        const read = await ctx.call(main, 'getProjectConfig', { params: { slug } })
        ctx.equal('MUST', CHOICES, 'theme is replaced as a whole', ctx.expectOk<'getProjectConfig'>(read).config.theme, second, read)
      })
      await ctx.step('unknown keys (at any level, __proto__ and constructor included) are 400 and store nothing', async () => {
        const before = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config
        for (const [what, bodyText] of [
          ['an unknown top-level key', '{"config":{"layout":"CARD","colour":"red"}}'],
          ['an unknown nested key', '{"config":{"tokens":{"palette":[{"name":"--x","value":"#000","alpha":1}]}}}'],
          ['__proto__', '{"config":{"__proto__":{"polluted":true},"layout":"CARD"}}'],
          ['constructor', '{"config":{"constructor":{"prototype":{"polluted":true}}}}'],
        ] as const) {
          expectCode(
            ctx,
            await ctx.send(main, { operationId: 'updateProjectConfig', params: { slug }, bodyText }),
            400,
            'VALIDATION_ERROR',
            what,
          )
        }
        ctx.equal(
          'MUST',
          CHOICES,
          'refused configs store nothing',
          (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config,
          before,
        )
      })
    },
  }),
  emulatorScenario({
    id: 'emulator.duplicate',
    title: 'A duplicate is named "<name> (copy)", in the key’s team, with its own subdomain',
    async run(ctx) {
      const main = await ctx.main()
      await ctx.step('a duplicate is named "<name> (copy)" and sits on its own subdomain', async () => {
        const source = await createProject(ctx, main, 'dup choice')
        const name = (await ctx.ok(main, 'getProject', { params: { slug: source.slug } })).name
        const copy = await ctx.ok(main, 'duplicateProject', { params: { slug: source.slug } })
        ctx.created(copy.projectSlug, { actor: main, purpose: 'dup choice copy' })
        ctx.equal('MUST', CHOICES, 'the copy is named "<name> (copy)"', copy.name, `${name} (copy)`)
        const url = await ctx.ok(main, 'getProjectUrl', { params: { slug: copy.projectSlug } })
        ctx.equal('MUST', CHOICES, 'the copy sits on its own subdomain', url.current.type, 'subdomain')
      })
    },
  }),
  emulatorScenario({
    id: 'emulator.slides',
    title:
      'Slide choices: create-slide, slide-guide and slide-files extensions, validation hints, all-or-nothing updates, optional editing body, 404s',
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'slides choices')
      const CREATED = 'created slides are appended in order, unnamed ones "Slide N"; creating one makes the latest version'
      const created = await ctx.step(CREATED, async () => {
        const made = await ctx.ok(main, 'createSlide', { params: { slug }, body: { name: 'Cover' } })
        const second = await ctx.ok(main, 'createSlide', { params: { slug } })
        const { slides } = await ctx.ok(main, 'listSlides', { params: { slug } })
        ctx.equal(
          'MUST',
          CHOICES,
          'created slides are appended in order, unnamed ones "Slide N"',
          slides.map((s) => [s.id, s.name]),
          [
            [made.slideId, 'Cover'],
            [second.slideId, 'Slide 2'],
          ],
        )
        const detail = await ctx.ok(main, 'getProject', { params: { slug } })
        ctx.equal('MUST', CHOICES, 'creating a slide makes the latest version', detail.latestVersion?.id, second.versionId)
        return made
      })
      await ctx.step('create-slide and the slide guide: 400 for a bad name, 404 for a missing project, 401 without a key', async () => {
        expectCode(
          ctx,
          await ctx.send(main, { operationId: 'createSlide', params: { slug }, body: { name: 7 } }),
          400,
          'VALIDATION_ERROR',
          'a slide name that is not a string',
        )
        expectCode(
          ctx,
          await ctx.call(main, 'createSlide', { params: { slug: `${slug}-missing` } }),
          404,
          'NOT_FOUND',
          'a slide for a missing project',
        )
        expectCode(ctx, await ctx.call(null, 'createSlide', { params: { slug } }), 401, 'UNAUTHORIZED', 'creating a slide without a key')
        expectCode(
          ctx,
          await ctx.call(main, 'getSlideGuide', { params: { slug: `${slug}-missing` } }),
          404,
          'NOT_FOUND',
          'the guide of a missing project',
        )
        expectCode(ctx, await ctx.call(null, 'getSlideGuide', { params: { slug } }), 401, 'UNAUTHORIZED', 'the slide guide without a key')
      })
      await ctx.step('the slide guide states the token patterns', async () => {
        const guide = await ctx.ok(main, 'getSlideGuide', { params: { slug } })
        ctx.equal(
          'MUST',
          CHOICES,
          'the slide guide states the token patterns',
          [guide.tokens.palette.namePattern, guide.tokens.fonts.namePattern],
          ['^--[a-z][a-z0-9-]*$', '^--font-[a-z][a-z0-9-]*$'],
        )
      })
      const params = { slug, slideId: created?.slideId ?? 'sld_conformance_none' }
      await ctx.step(
        'a file that does not parse is 400 naming the file and line:column; a rejected update saves none of its files',
        async () => {
          const good = await ctx.ok(main, 'updateSlide', {
            params,
            body: { files: { 'slide.content.json': '{"title":"Kept","blocks":[]}' } },
          })
          const badTsx = await ctx.send(main, {
            operationId: 'updateSlide',
            params,
            body: {
              files: {
                'slide.tsx': 'export default function Slide() {\n  return <div>\n}\n',
                'slide.content.json': '{"title":"Lost","blocks":[]}',
              },
            },
          })
          expectCode(ctx, badTsx, 400, 'VALIDATION_ERROR', 'a slide.tsx that does not parse')
          ctx.must(
            CHOICES,
            'the hint names the file and line:column',
            /^slide\.tsx:\d+:\d+: /.test(String((badTsx.json as { hint?: string })?.hint)),
            { actual: badTsx.text, exchange: badTsx },
          )
          const noDefault = await ctx.send(main, {
            operationId: 'updateSlide',
            params,
            body: { files: { 'slide.tsx': 'export const Slide = () => null\n' } },
          })
          ctx.must(
            CHOICES,
            'a missing default export is reported at 1:1',
            String((noDefault.json as { hint?: string })?.hint).startsWith('slide.tsx:1:1: '),
            { actual: noDefault.text, exchange: noDefault },
          )
          const badJson = await ctx.send(main, {
            operationId: 'updateSlide',
            params,
            body: { files: { 'slide.controls.json': '{\n  "controls": [,]\n}' } },
          })
          ctx.must(
            CHOICES,
            'a JSON file that does not parse is reported at its line:column',
            /^slide\.controls\.json:2:\d+: /.test(String((badJson.json as { hint?: string })?.hint)),
            { actual: badJson.text, exchange: badJson },
          )
          const after = await ctx.ok(main, 'updateSlide', { params, body: { files: { 'slide.controls.json': '{"controls":[]}' } } })
          ctx.equal(
            'MUST',
            CHOICES,
            'a rejected update saves none of its files (all or nothing)',
            after.files['slide.content.json'],
            good.files['slide.content.json'],
          )
        },
        { after: [CREATED] },
      )
      await ctx.step(
        'the files extension answers the stored files in the shape PUT takes them; a read, edit and PUT round trip works; 404 and 401 as every read',
        async () => {
          const read = await ctx.ok(main, 'getSlideFiles', { params })
          const files = { ...read.files, 'slide.content.json': '{"title":"Round trip","blocks":[]}' }
          const put = await ctx.ok(main, 'updateSlide', { params, body: { files } })
          const again = await ctx.ok(main, 'getSlideFiles', { params })
          ctx.equal('MUST', CHOICES, 'the files read back are those the PUT answered', again.files, put.files)
          ctx.equal('MUST', CHOICES, 'the edited file is saved', again.files['slide.content.json'], files['slide.content.json'])
          expectCode(
            ctx,
            await ctx.call(main, 'getSlideFiles', { params: { slug, slideId: 'sld_conformance_missing' } }),
            404,
            'NOT_FOUND',
            'the files of a missing slide',
          )
          expectCode(ctx, await ctx.call(null, 'getSlideFiles', { params }), 401, 'UNAUTHORIZED', 'the files without a key')
        },
        { after: [CREATED] },
      )
      await ctx.step(
        'the editing body is optional; agentName must be a string; stopping twice is fine',
        async () => {
          ctx.expectOk(await ctx.call(main, 'startSlideEditing', { params, body: {} }))
          expectCode(
            ctx,
            await ctx.send(main, { operationId: 'startSlideEditing', params, body: { agentName: 3 } }),
            400,
            'VALIDATION_ERROR',
            'an editing agentName that is not a string',
          )
          ctx.expectOk(await ctx.call(main, 'stopSlideEditing', { params }))
          ctx.expectOk(await ctx.call(main, 'stopSlideEditing', { params }))
        },
        { after: [CREATED] },
      )
      await ctx.step(
        'a missing slide, the slides of a missing project and a slide through another project’s slug are 404',
        async () => {
          expectCode(
            ctx,
            await ctx.call(main, 'updateSlide', {
              params: { slug, slideId: 'sld_conformance_missing' },
              body: { files: { 'slide.content.json': '{}' } },
            }),
            404,
            'NOT_FOUND',
            'a missing slide',
          )
          const other = await createProject(ctx, main, 'slides elsewhere')
          expectCode(
            ctx,
            await ctx.call(main, 'listSlides', { params: { slug: `${other.slug}-missing` } }),
            404,
            'NOT_FOUND',
            'slides of a missing project',
          )
          expectCode(
            ctx,
            await ctx.call(main, 'updateSlide', {
              params: { slug: other.slug, slideId: created!.slideId },
              body: { files: { 'slide.content.json': '{}' } },
            }),
            404,
            'NOT_FOUND',
            'a slide through another project’s slug',
          )
        },
        { after: [CREATED] },
      )
    },
  }),
  emulatorScenario({
    id: 'emulator.access',
    title: 'Access: a key reaches its teams’ projects and those shared with its owner; inaccessible is 404 like missing',
    async run(ctx) {
      const owner = await ctx.main()
      const stranger = await ctx.freshAccount('stranger')
      const { slug } = await createProject(ctx, owner, 'shared')
      await ctx.step('an inaccessible project is reported exactly like a missing one', async () => {
        const missing = await ctx.call(stranger, 'getProject', { params: { slug: `${slug}-nope` } })
        const hidden = await ctx.call(stranger, 'getProject', { params: { slug } })
        ctx.equal(
          'MUST',
          ACCESS,
          'an inaccessible project is reported exactly like a missing one',
          [hidden.status, code(hidden), (hidden.json as { error?: string })?.error],
          [missing.status, code(missing), (missing.json as { error?: string })?.error],
          hidden,
        )
      })
      await ctx.step('a project shared with a collaborator is reachable', async () => {
        await ctx.control.addCollaborator(slug, { userId: stranger.userId! })
        ctx.expectOk(await ctx.call(stranger, 'getProject', { params: { slug } }))
      })
      await ctx.step(
        'a team key’s projects reach every member; GET /teams lists every team; templates cover the key’s team only',
        async () => {
          const { teamId } = await ctx.control.createTeam({
            name: ctx.name('shared team').slice(0, 200),
            memberUserIds: [owner.userId!, stranger.userId!],
          })
          const teamKey = await ctx.control.createKey({ userId: stranger.userId!, teamId })
          const teamActor = { key: teamKey.apiKey, label: 'team key' }
          const made = await ctx.ok(teamActor, 'createProject', { body: { name: ctx.name('team project') } })
          ctx.created(made.projectSlug)
          ctx.expectOk(await ctx.call(owner, 'getProject', { params: { slug: made.projectSlug } }))
          const teams = await ctx.ok(owner, 'listTeams')
          ctx.must(
            ACCESS,
            'GET /teams lists every team of the owner',
            teams.teams.some((t) => t.id === teamId) && teams.teams.some((t) => t.isPersonal),
            { actual: teams.teams },
          )
          ctx.equal('MUST', ACCESS, 'templates cover the key’s team only', (await ctx.ok(teamActor, 'listTemplates')).templates, [])
        },
      )
    },
  }),
]
