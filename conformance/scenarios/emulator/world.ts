/**
 * Emulator checks of the seeded world (contract §2) and of the control plane
 * (contract §5). Grounded in the contract only: the keys, credits, counts
 * and relations it states; never names or ids it does not.
 */
import type { ServiceApiError } from '../../../src/client/index.js'
import { contract } from '../../clauses.js'
import type { Actor } from '../../context.js'
import { OPERATION_IDS } from '../../../src/client/index.js'
import { Clauses } from '../../clauses.js'
import { plausibleRequest } from '../auth.js'
import { createProject, needs, scenario } from '../support.js'

const WORLD = contract('§2 › the seeded world')
const CONTROL = contract('§5 › control plane')
const RATE = contract('§3 › rate limit')

const alice: Actor = { key: 'pres_test_alice', label: 'pres_test_alice', role: 'fixture' }
const acme: Actor = { key: 'pres_test_alice_acme', label: 'pres_test_alice_acme', role: 'fixture' }
const bob: Actor = { key: 'pres_test_bob', label: 'pres_test_bob', role: 'fixture' }
const revoked: Actor = { key: 'pres_test_revoked', label: 'pres_test_revoked', role: 'fixture' }

export const worldScenarios = [
  scenario({
    id: 'emulator.fixtures',
    title: 'The seeded world has the contract’s keys, teams, credits, templates and projects',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane', 'seededWorld'),
    async run(ctx) {
      const aliceTeams = (await ctx.ok(alice, 'listTeams')).teams
      const acmeTeams = (await ctx.ok(acme, 'listTeams')).teams
      ctx.equal('MUST', WORLD, 'Alice belongs to her personal team and Acme', aliceTeams.length, 2)
      ctx.equal(
        'MUST',
        WORLD,
        'both of Alice’s keys see the same teams',
        acmeTeams.map((t) => t.id),
        aliceTeams.map((t) => t.id),
      )
      const personal = aliceTeams.find((t) => t.isPersonal)
      const shared = aliceTeams.find((t) => !t.isPersonal)
      ctx.must(WORLD, 'one of Alice’s teams is personal, the other is Acme', personal !== undefined && shared?.name === 'Acme', {
        actual: aliceTeams,
      })
      const state = (await ctx.control.getState()) as { teams: Array<{ id: string; credits: number }> }
      const credits = (id: string | undefined) => state.teams.find((t) => t.id === id)?.credits
      ctx.equal('MUST', WORLD, 'Alice’s personal team has 20 credits', credits(personal?.id), 20)
      ctx.equal('MUST', WORLD, 'Acme has 100 credits', credits(shared?.id), 100)
      ctx.equal('MUST', WORLD, 'Acme has 3 templates', (await ctx.ok(acme, 'listTemplates')).templates.length, 3)
      const bobTeams = (await ctx.ok(bob, 'listTeams')).teams
      ctx.must(WORLD, 'Bob belongs only to his personal team', bobTeams.length === 1 && bobTeams[0]!.isPersonal, { actual: bobTeams })
      ctx.equal(
        'MUST',
        WORLD,
        'Bob has 0 credits: generate is 402',
        (await ctx.call(bob, 'generateProject', { body: { prompt: 'x' } })).status,
        402,
      )
      ctx.equal('MUST', WORLD, 'the revoked key is 401', (await ctx.call(revoked, 'listTeams')).status, 401)

      const acmePage = await ctx.ok(acme, 'listProjects')
      ctx.must(
        WORLD,
        'Acme’s projects paginate at the default page size (more than 20)',
        acmePage.projects.length === 20 && acmePage.nextCursor !== undefined,
        { actual: acmePage.projects.length },
      )
      ctx.must(
        WORLD,
        'some of Acme’s projects are published',
        (await ctx.ok(acme, 'listProjects', { query: { published: true } })).projects.length > 0,
      )
      const bobProjects = (await ctx.ok(bob, 'listProjects', { query: { limit: 100 } })).projects
      const aliceSees = new Set((await ctx.ok(alice, 'listProjects', { query: { limit: 100 } })).projects.map((p) => p.id))
      ctx.must(
        WORLD,
        'Bob shares one of his projects with Alice',
        bobProjects.some((p) => aliceSees.has(p.id)),
        { actual: bobProjects.map((p) => p.slug) },
      )
      const acmeSlug = acmePage.projects[0]!.slug
      ctx.equal(
        'MUST',
        WORLD,
        'Acme’s projects are never visible to Bob',
        (await ctx.call(bob, 'getProject', { params: { slug: acmeSlug } })).status,
        404,
      )
      for (const project of acmePage.projects.slice(0, 3)) {
        const slug = project.slug
        const detail = await ctx.ok(acme, 'getProject', { params: { slug } })
        const slides = await ctx.ok(acme, 'listSlides', { params: { slug } })
        const url = await ctx.ok(acme, 'getProjectUrl', { params: { slug } })
        ctx.must(
          WORLD,
          `fixture project ${slug} has slides, a version and a subdomain`,
          slides.slides.length > 0 && detail.latestVersion !== null && url.availableSubdomains.length > 0,
          {
            actual: { slides: slides.slides.length, latestVersion: detail.latestVersion, subdomains: url.availableSubdomains.length },
          },
        )
      }
    },
  }),
  scenario({
    id: 'emulator.faults-every-operation',
    title: 'A fault answers on every operation: 500 with the error body and X-Service-Error-Code',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane'),
    covers: OPERATION_IDS.map((id) => [id, 500] as const),
    async run(ctx) {
      const account = await ctx.freshAccount('faults')
      for (const operationId of OPERATION_IDS) {
        await ctx.control.addFault({ operationId, status: 500, times: 1, apiKey: account.key })
        const exchange = await ctx.send(account, plausibleRequest(ctx, operationId))
        ctx.expectError(exchange, 500, CONTROL)
        ctx.must(
          Clauses.errors,
          'a fault’s 500 carries the contract’s code',
          exchange.headers['x-service-error-code'] === 'INTERNAL_ERROR',
          { actual: exchange.headers['x-service-error-code'] ?? '(absent)', exchange },
        )
      }
    },
  }),
  scenario({
    id: 'emulator.control-plane',
    title: 'The control plane: health, accounts, keys, credits, templates, collaborators, clock, jobs, faults and the journal',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane'),
    // Alone: it counts on jobs still processing, and other scenarios' waits move the shared clock.
    phase: 'last',
    async run(ctx) {
      const control = ctx.control
      const health = await control.health()
      ctx.must(CONTROL, 'health answers {status: "ok", version}', health.status === 'ok' && typeof health.version === 'string', {
        actual: health,
      })
      const account = await ctx.freshAccount('control', 1)
      ctx.expectOk(await ctx.call(account, 'listTeams'))
      ctx.equal('MUST', CONTROL, 'a fresh account shares nothing: no projects', (await ctx.ok(account, 'listProjects')).projects, [])

      const extra = await control.createKey({ userId: account.userId!, name: 'second' })
      const extraActor = { key: extra.apiKey, label: 'second key' }
      ctx.expectOk(await ctx.call(extraActor, 'listTeams'))
      await control.revokeKey(extra.keyId)
      ctx.equal('MUST', CONTROL, 'a revoked key is refused at once', (await ctx.call(extraActor, 'listTeams')).status, 401)

      await control.setCredits(account.teamId!, { credits: 0 })
      ctx.equal(
        'MUST',
        CONTROL,
        'credits set to 0 make generate 402',
        (await ctx.call(account, 'generateProject', { body: { prompt: 'x' } })).status,
        402,
      )
      await control.setCredits(account.teamId!, { credits: 1 })
      const { templateId } = await control.createTemplate({ teamId: account.teamId!, name: 'Control template', slideCount: 2 })
      ctx.equal(
        'MUST',
        CONTROL,
        'a created template is listed for its team',
        (await ctx.ok(account, 'listTemplates')).templates.map((t) => t.id),
        [templateId],
      )
      const job = await ctx.ok(account, 'generateProject', { body: { prompt: 'controlled', templateId } })
      ctx.created(job.projectSlug, { actor: account, purpose: 'controlled' })
      const failed = await control.failJob(job.jobId, { error: 'Failed on purpose' })
      ctx.equal('MUST', CONTROL, 'failing a job sets its error', [failed.status, failed.error], ['failed', 'Failed on purpose'])
      const again = await ctx.ok(account, 'generateProject', { body: { prompt: 'again' } })
      ctx.created(again.projectSlug, { actor: account, purpose: 'again' })
      ctx.equal('MUST', CONTROL, 'completing a job finishes it at once', (await control.completeJob(again.jobId)).status, 'completed')
      const twice = await control.completeJob(again.jobId).catch((error: ServiceApiError) => error)
      ctx.equal('MUST', CONTROL, 'completing a finished job is 400', (twice as ServiceApiError).status, 400)

      const friend = await ctx.freshAccount('friend')
      const { slug } = await createProject(ctx, account, 'collaborate')
      ctx.equal(
        'MUST',
        CONTROL,
        'before sharing, another user gets 404',
        (await ctx.call(friend, 'getProject', { params: { slug } })).status,
        404,
      )
      await control.addCollaborator(slug, { userId: friend.userId! })
      ctx.expectOk(await ctx.call(friend, 'getProject', { params: { slug } }))

      const clock = await control.clock()
      const moved = await control.advanceClock({ ms: 1000 })
      ctx.must(CONTROL, 'advancing the clock moves it forward', Date.parse(moved.now) >= Date.parse(clock.now) + 1000, {
        actual: [clock.now, moved.now],
      })

      const { faultId } = await control.addFault({
        operationId: 'listTeams',
        status: 503,
        times: 2,
        apiKey: account.key,
        error: 'Down',
        code: 'MAINTENANCE',
      })
      const first = await ctx.call(account, 'listTeams')
      ctx.equal(
        'MUST',
        CONTROL,
        'a fault answers its status, error and code',
        [first.status, first.headers['x-service-error-code'], (first.json as { error?: string })?.error],
        [503, 'MAINTENANCE', 'Down'],
        first,
      )
      ctx.equal('MUST', CONTROL, 'a fault scoped to a key spares other keys', (await ctx.call(friend, 'listTeams')).status, 200)
      const listedFault = (await control.listFaults()).faults.find((f) => f.id === faultId)
      ctx.equal('MUST', CONTROL, 'a listed fault counts its hits', [listedFault?.hits, listedFault?.remaining], [1, 1])
      ctx.equal('MUST', CONTROL, 'a fault fires `times` times', (await ctx.call(account, 'listTeams')).status, 503)
      ctx.equal('MUST', CONTROL, 'then calls answer normally again', (await ctx.call(account, 'listTeams')).status, 200)
      const gone = await control.removeFault(faultId).catch((error: ServiceApiError) => error)
      ctx.equal('MUST', CONTROL, 'a used-up fault is gone (404)', (gone as ServiceApiError).status, 404)
      const bad = await control.advanceClock({ ms: -5 }).catch((error: ServiceApiError) => error)
      ctx.equal(
        'MUST',
        CONTROL,
        'bad control-plane input is 400 VALIDATION_ERROR',
        [(bad as ServiceApiError).status, (bad as ServiceApiError).code],
        [400, 'VALIDATION_ERROR'],
      )

      const journal = await control.listRequests({ operationId: 'listTeams', limit: 50 })
      const mine = journal.requests.filter((entry) => entry.keyId === account.keyId)
      ctx.must(
        CONTROL,
        'the journal records the account’s requests, newest first, with their status',
        mine.length >= 4 && mine[0]!.status === 200 && mine[1]!.status === 503,
        {
          actual: mine.slice(0, 4).map((e) => e.status),
        },
      )
    },
  }),
  scenario({
    id: 'emulator.rate-limit-headers',
    title:
      'Every authenticated response carries X-RateLimit-*; Remaining is limit − n; failed authentication is not counted; a 429 has Retry-After',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane'),
    phase: 'last',
    async run(ctx) {
      const account = await ctx.freshAccount('rate headers')
      const now = Date.parse((await ctx.control.clock()).now)
      await ctx.sleep(60_000 - (now % 60_000))
      const first = await ctx.call(account, 'listTeams')
      const limit = Number(first.headers['x-ratelimit-limit'])
      ctx.must(
        RATE,
        'a 200 carries X-RateLimit-Limit, -Remaining and -Reset',
        Number.isInteger(limit) && first.headers['x-ratelimit-remaining'] !== undefined && first.headers['x-ratelimit-reset'] !== undefined,
        { exchange: first },
      )
      ctx.equal(
        'MUST',
        RATE,
        'after the first request, Remaining is limit − 1',
        Number(first.headers['x-ratelimit-remaining']),
        limit - 1,
        first,
      )
      ctx.equal(
        'MUST',
        RATE,
        'a request that fails authentication is not counted',
        (await ctx.send(null, { operationId: 'listTeams', authorization: 'Bearer pres_nobody' })).status,
        401,
      )
      const refused = await ctx.call(account, 'getProject', { params: { slug: 'conformance-missing' } })
      ctx.equal(
        'MUST',
        RATE,
        'a 404 counts too: Remaining is limit − 2',
        Number(refused.headers['x-ratelimit-remaining']),
        limit - 2,
        refused,
      )
      let last = refused
      for (let n = 3; n <= limit + 1; n++) last = await ctx.send(account, { operationId: 'listTeams' }, { expectRateLimit: true })
      ctx.equal(
        'MUST',
        RATE,
        'the request after the limit is 429 with Remaining 0',
        [last.status, last.headers['x-ratelimit-remaining']],
        [429, '0'],
        last,
      )
      // Seconds on a real clock; on a manual clock the emulator says "retry now" with a date in the past (README's choices).
      const { mode } = await ctx.control.clock()
      const retryAfter = last.headers['retry-after'] ?? ''
      ctx.must(
        RATE,
        `a 429 has Retry-After (${mode === 'manual' ? 'the epoch date on a manual clock' : 'seconds'})`,
        mode === 'manual' ? retryAfter === 'Thu, 01 Jan 1970 00:00:00 GMT' : /^\d+$/.test(retryAfter),
        { actual: retryAfter, exchange: last },
      )
    },
  }),
  scenario({
    id: 'emulator.reset-and-state',
    title: 'State export and import round-trip; reset goes back to the seeded world',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane', 'seededWorld'),
    phase: 'last',
    async run(ctx) {
      const control = ctx.control
      const { slug } = await createProject(ctx, acme, 'before reset')
      const state = await control.getState()
      const summary = await control.putState(state)
      ctx.equal('MUST', CONTROL, 'PUT /state accepts what GET /state gave', summary.format, 'presentation-emulator/state@1')
      ctx.equal('MUST', CONTROL, 'the state survives a round trip', await control.getState(), state)
      const bad = await control.putState({ format: 'something else' }).catch((error: ServiceApiError) => error)
      ctx.equal('MUST', CONTROL, 'an invalid state document is 400', (bad as ServiceApiError).status, 400)
      ctx.expectOk(await ctx.call(acme, 'getProject', { params: { slug } }))
      await control.reset()
      ctx.equal(
        'MUST',
        CONTROL,
        'after reset, projects created since are gone',
        (await ctx.call(acme, 'getProject', { params: { slug } })).status,
        404,
      )
      ctx.equal('MUST', CONTROL, 'after reset, the seeded keys work', (await ctx.call(alice, 'listTeams')).status, 200)
    },
  }),
]
