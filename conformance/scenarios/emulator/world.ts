/**
 * Emulator checks of the seeded world (contract §2) and of the control plane
 * (contract §5). Grounded in the contract only: the keys, credits, counts
 * and relations it states; never names or ids it does not. Written in steps:
 * each is reported, and a step that depends on one that could not complete
 * is skipped, naming it.
 */
import { OPERATION_IDS, type ServiceApiError } from '../../../src/client/index.js'
import { Clauses, contract } from '../../clauses.js'
import type { Actor } from '../../actors.js'
import { plausibleRequest } from '../auth.js'
import { createProject, needs, scenario } from '../support.js'

const WORLD = contract('§2 › the seeded world')
const CONTROL = contract('§5 › control plane')
const RATE = contract('§3 › rate limit')

const alice: Actor = { key: 'pres_test_alice', label: 'pres_test_alice', role: 'fixture' }
const acme: Actor = { key: 'pres_test_alice_acme', label: 'pres_test_alice_acme', role: 'fixture' }
const bob: Actor = { key: 'pres_test_bob', label: 'pres_test_bob', role: 'fixture' }
const revoked: Actor = { key: 'pres_test_revoked', label: 'pres_test_revoked', role: 'fixture' }

/** The status and code of a control-plane call that failed (or of one that did not). */
async function refusal(call: Promise<unknown>): Promise<[number | undefined, string | undefined]> {
  try {
    await call
    return [200, undefined]
  } catch (error) {
    return [(error as ServiceApiError).status, (error as ServiceApiError).code]
  }
}

interface StateDocument {
  teams: Array<{ id: string; credits: number }>
  apiKeys: Array<{ id: string; teamId: string }>
}

export const worldScenarios = [
  scenario({
    id: 'emulator.fixtures',
    title: 'The seeded world has the contract’s keys, teams, credits, templates and projects',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane', 'seededWorld'),
    async run(ctx) {
      const teams = await ctx.step('Alice belongs to her personal team and Acme; both her keys see them', async () => {
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
        return { personal: personal?.id, acme: shared?.id }
      })
      await ctx.step(
        'Alice’s personal team has 20 credits, Acme 100',
        async () => {
          const state = (await ctx.control.getState()) as StateDocument
          const credits = (id: string | undefined) => state.teams.find((t) => t.id === id)?.credits
          ctx.equal('MUST', WORLD, 'Alice’s personal team has 20 credits', credits(teams!.personal), 20)
          ctx.equal('MUST', WORLD, 'Acme has 100 credits', credits(teams!.acme), 100)
        },
        { after: ['Alice belongs to her personal team and Acme; both her keys see them'] },
      )
      await ctx.step('Acme has 3 templates', async () => {
        ctx.equal('MUST', WORLD, 'Acme has 3 templates', (await ctx.ok(acme, 'listTemplates')).templates.length, 3)
      })
      await ctx.step('Bob belongs only to his personal team and has no credits', async () => {
        const bobTeams = (await ctx.ok(bob, 'listTeams')).teams
        ctx.must(WORLD, 'Bob belongs only to his personal team', bobTeams.length === 1 && bobTeams[0]!.isPersonal, { actual: bobTeams })
        const generate = await ctx.call(bob, 'generateProject', { body: { prompt: 'x' } })
        ctx.equal('MUST', WORLD, 'Bob has 0 credits: generate is 402', generate.status, 402, generate)
      })
      await ctx.step('the revoked key is 401', async () => {
        ctx.equal('MUST', WORLD, 'the revoked key is 401', (await ctx.call(revoked, 'listTeams')).status, 401)
      })
      const acmePage = await ctx.step('Acme’s projects paginate at the default page size, some published', async () => {
        const page = await ctx.ok(acme, 'listProjects')
        ctx.must(
          WORLD,
          'Acme’s projects paginate at the default page size (more than 20)',
          page.projects.length === 20 && page.nextCursor !== undefined,
          { actual: page.projects.length },
        )
        ctx.must(
          WORLD,
          'some of Acme’s projects are published',
          (await ctx.ok(acme, 'listProjects', { query: { published: true } })).projects.length > 0,
        )
        return page
      })
      await ctx.step('Bob shares one of his projects with Alice', async () => {
        const bobProjects = (await ctx.ok(bob, 'listProjects', { query: { limit: 100 } })).projects
        const aliceSees = new Set((await ctx.ok(alice, 'listProjects', { query: { limit: 100 } })).projects.map((p) => p.id))
        ctx.must(
          WORLD,
          'Bob shares one of his projects with Alice',
          bobProjects.some((p) => aliceSees.has(p.id)),
          { actual: bobProjects.map((p) => p.slug) },
        )
      })
      await ctx.step(
        'Acme’s projects are never visible to Bob',
        async () => {
          const hidden = await ctx.call(bob, 'getProject', { params: { slug: acmePage!.projects[0]!.slug } })
          ctx.equal('MUST', WORLD, 'Acme’s projects are never visible to Bob', hidden.status, 404, hidden)
        },
        { after: ['Acme’s projects paginate at the default page size, some published'] },
      )
      await ctx.step(
        'every fixture project has slides, a version and a subdomain',
        async () => {
          for (const project of acmePage!.projects.slice(0, 3)) {
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
        { after: ['Acme’s projects paginate at the default page size, some published'] },
      )
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
        await ctx.step(`a fault on ${operationId}`, async () => {
          await ctx.control.addFault({ operationId, status: 500, times: 1, apiKey: account.key })
          const exchange = await ctx.send(account, plausibleRequest(ctx, operationId))
          ctx.expectError(exchange, 500, CONTROL)
          ctx.must(
            Clauses.errors,
            'a fault’s 500 carries the contract’s code',
            exchange.headers['x-service-error-code'] === 'INTERNAL_ERROR',
            { actual: exchange.headers['x-service-error-code'] ?? '(absent)', exchange },
          )
        })
      }
    },
  }),
  scenario({
    id: 'emulator.control-plane',
    title: 'The control plane: health, accounts, keys, credits, templates, collaborators, clock, jobs, faults, state and the journal',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane'),
    // Alone: it counts on jobs still processing, and other scenarios' waits move the shared clock.
    phase: 'last',
    async run(ctx) {
      const control = ctx.control
      const ACCOUNT = 'a fresh account shares nothing'
      await ctx.step('health answers {status: "ok", version}', async () => {
        const health = await control.health()
        ctx.must(CONTROL, 'health answers {status: "ok", version}', health.status === 'ok' && typeof health.version === 'string', {
          actual: health,
        })
      })
      const account = await ctx.step(ACCOUNT, async () => {
        const made = await ctx.freshAccount('control', 1)
        ctx.expectOk(await ctx.call(made, 'listTeams'))
        ctx.equal('MUST', CONTROL, 'a fresh account shares nothing: no projects', (await ctx.ok(made, 'listProjects')).projects, [])
        return made
      })
      const after = { after: [ACCOUNT] }
      await ctx.step(
        'a second key works, is scoped to the personal team by default, and is refused at once once revoked',
        async () => {
          const extra = await control.createKey({ userId: account!.userId!, name: 'second' })
          const extraActor = { key: extra.apiKey, label: 'second key' }
          ctx.expectOk(await ctx.call(extraActor, 'listTeams'))
          const state = (await control.getState()) as StateDocument
          ctx.equal(
            'MUST',
            CONTROL,
            'a key made without a team is scoped to the personal team',
            state.apiKeys.find((k) => k.id === extra.keyId)?.teamId,
            account!.teamId,
          )
          await control.revokeKey(extra.keyId)
          ctx.equal('MUST', CONTROL, 'a revoked key is refused at once', (await ctx.call(extraActor, 'listTeams')).status, 401)
        },
        after,
      )
      await ctx.step(
        'credits set to 0 make generate 402; the answer says the credits set',
        async () => {
          await control.setCredits(account!.teamId!, { credits: 0 })
          ctx.equal(
            'MUST',
            CONTROL,
            'credits set to 0 make generate 402',
            (await ctx.call(account!, 'generateProject', { body: { prompt: 'x' } })).status,
            402,
          )
          const set = await control.setCredits(account!.teamId!, { credits: 1 })
          ctx.equal('MUST', CONTROL, 'PUT credits answers {teamId, credits}', set, { teamId: account!.teamId, credits: 1 })
        },
        after,
      )
      const templateId = await ctx.step(
        'a created template is listed for its team',
        async () => {
          const { templateId } = await control.createTemplate({ teamId: account!.teamId!, name: 'Control template', slideCount: 2 })
          ctx.equal(
            'MUST',
            CONTROL,
            'a created template is listed for its team',
            (await ctx.ok(account!, 'listTemplates')).templates.map((t) => t.id),
            [templateId],
          )
          return templateId
        },
        after,
      )
      await ctx.step(
        'a job fails on purpose (credit refunded), completes at once, and not twice',
        async () => {
          await control.setCredits(account!.teamId!, { credits: 1 })
          const job = await ctx.ok(account!, 'generateProject', { body: { prompt: 'controlled', templateId: templateId! } })
          ctx.created(job.projectSlug, { actor: account!, purpose: 'controlled' })
          const failed = await control.failJob(job.jobId, { error: 'Failed on purpose' })
          ctx.equal('MUST', CONTROL, 'failing a job sets its error', [failed.status, failed.error], ['failed', 'Failed on purpose'])
          // The one credit came back with the failure: another job can start.
          const again = await ctx.ok(account!, 'generateProject', { body: { prompt: 'again' } })
          ctx.created(again.projectSlug, { actor: account!, purpose: 'again' })
          ctx.equal('MUST', CONTROL, 'completing a job finishes it at once', (await control.completeJob(again.jobId)).status, 'completed')
          ctx.equal('MUST', CONTROL, 'completing a finished job is 400', (await refusal(control.completeJob(again.jobId)))[0], 400)
        },
        { after: [ACCOUNT, 'a created template is listed for its team'] },
      )
      await ctx.step(
        'a project shared with a collaborator becomes reachable to them',
        async () => {
          const friend = await ctx.freshAccount('friend')
          const { slug } = await createProject(ctx, account!, 'collaborate')
          ctx.equal(
            'MUST',
            CONTROL,
            'before sharing, another user gets 404',
            (await ctx.call(friend, 'getProject', { params: { slug } })).status,
            404,
          )
          await control.addCollaborator(slug, { userId: friend.userId! })
          ctx.expectOk(await ctx.call(friend, 'getProject', { params: { slug } }))
        },
        after,
      )
      await ctx.step('the clock reads and moves forward', async () => {
        const clock = await control.clock()
        const moved = await control.advanceClock({ ms: 1000 })
        ctx.must(CONTROL, 'advancing the clock moves it forward', Date.parse(moved.now) >= Date.parse(clock.now) + 1000, {
          actual: [clock.now, moved.now],
        })
      })
      await ctx.step(
        'a fault answers its status, error and code, to its key only, `times` times, then is gone',
        async () => {
          const friend = await ctx.freshAccount('fault bystander')
          const { faultId } = await control.addFault({
            operationId: 'listTeams',
            status: 503,
            times: 2,
            apiKey: account!.key,
            error: 'Down',
            code: 'MAINTENANCE',
          })
          const first = await ctx.call(account!, 'listTeams')
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
          ctx.equal('MUST', CONTROL, 'a fault fires `times` times', (await ctx.call(account!, 'listTeams')).status, 503)
          ctx.equal('MUST', CONTROL, 'then calls answer normally again', (await ctx.call(account!, 'listTeams')).status, 200)
          ctx.equal('MUST', CONTROL, 'a used-up fault is gone (404)', (await refusal(control.removeFault(faultId)))[0], 404)
        },
        after,
      )
      await ctx.step(
        'a fault with times 0 fires until removed; without a code it answers its status’s default code',
        async () => {
          const { faultId } = await control.addFault({ operationId: 'listTeams', status: 404, times: 0, apiKey: account!.key })
          const answers = [
            await ctx.call(account!, 'listTeams'),
            await ctx.call(account!, 'listTeams'),
            await ctx.call(account!, 'listTeams'),
          ]
          ctx.equal(
            'MUST',
            CONTROL,
            'a fault with times 0 answers every matching call until removed',
            answers.map((a) => a.status),
            [404, 404, 404],
            answers.at(-1),
          )
          ctx.equal(
            'MUST',
            CONTROL,
            'a fault without a code answers the default code for its status',
            answers[0]!.headers['x-service-error-code'],
            'NOT_FOUND',
            answers[0],
          )
          await control.removeFault(faultId)
          ctx.equal('MUST', CONTROL, 'once removed, calls answer normally', (await ctx.call(account!, 'listTeams')).status, 200)
        },
        after,
      )
      await ctx.step(
        'DELETE /faults clears every fault',
        async () => {
          await control.addFault({ operationId: 'listTeams', status: 500, times: 0, apiKey: account!.key })
          await control.addFault({ operationId: 'listProjects', status: 500, times: 0, apiKey: account!.key })
          await control.clearFaults()
          ctx.equal('MUST', CONTROL, 'no fault is listed after DELETE /faults', (await control.listFaults()).faults, [])
          ctx.equal('MUST', CONTROL, 'and none fires', (await ctx.call(account!, 'listProjects')).status, 200)
        },
        after,
      )
      await ctx.step('bad input is 400 VALIDATION_ERROR; an unknown id is 404', async () => {
        ctx.equal('MUST', CONTROL, 'bad control-plane input is 400 VALIDATION_ERROR', await refusal(control.advanceClock({ ms: -5 })), [
          400,
          'VALIDATION_ERROR',
        ])
        ctx.equal('MUST', CONTROL, 'an unknown fault id is 404', (await refusal(control.removeFault('flt_conformance_missing')))[0], 404)
        ctx.equal('MUST', CONTROL, 'an unknown job id is 404', (await refusal(control.completeJob('job_conformance_missing')))[0], 404)
      })
      await ctx.step(
        'the journal records the API’s requests, newest first, by operation and within a limit',
        async () => {
          const journal = await control.listRequests({ operationId: 'listTeams', limit: 50 })
          const mine = journal.requests.filter((entry) => entry.keyId === account!.keyId)
          ctx.must(
            CONTROL,
            'the journal records the account’s requests, newest first, with their status',
            mine.length >= 4 && mine[0]!.status === 200,
            { actual: mine.slice(0, 4).map((e) => e.status) },
          )
          ctx.must(
            CONTROL,
            'operationId filters the journal',
            journal.requests.every((e) => e.operationId === 'listTeams'),
            { actual: [...new Set(journal.requests.map((e) => e.operationId))] },
          )
          ctx.must(
            CONTROL,
            'entries are newest first',
            journal.requests.every((e, i, all) => i === 0 || Date.parse(all[i - 1]!.time) >= Date.parse(e.time)),
          )
          ctx.equal('MUST', CONTROL, 'limit bounds the journal', (await control.listRequests({ limit: 2 })).requests.length, 2)
        },
        after,
      )
      await ctx.step('an invalid state document is 400 and changes nothing', async () => {
        const before = await control.getState()
        ctx.equal(
          'MUST',
          CONTROL,
          'an invalid state document is 400',
          (await refusal(control.putState({ format: 'something else' })))[0],
          400,
        )
        ctx.equal('MUST', CONTROL, 'an invalid state document changes nothing', await control.getState(), before)
      })
      await ctx.step('control-plane requests are never journaled nor rate-limited; DELETE /requests clears the journal', async () => {
        await control.clearRequests()
        ctx.equal('MUST', CONTROL, 'DELETE /requests clears the journal', (await control.listRequests()).requests, [])
        // More control-plane calls than the API's rate limit allows in a minute.
        const answers = await Promise.all(Array.from({ length: 60 }, () => refusal(control.clock())))
        ctx.must(
          CONTROL,
          'control-plane calls are never rate-limited',
          answers.every(([status]) => status === 200),
          {
            actual: [...new Set(answers.map(([status]) => status))],
          },
        )
        ctx.equal('MUST', CONTROL, 'control-plane calls are never journaled', (await control.listRequests()).requests, [])
      })
    },
  }),
  scenario({
    id: 'emulator.rate-limit-headers',
    title:
      'Every authenticated response carries X-RateLimit-*; Remaining is limit − n; failed authentication is not counted; a 429 has Retry-After; windows roll',
    kind: 'emulator',
    needs: needs('emulator', 'controlPlane'),
    phase: 'last',
    async run(ctx) {
      const account = await ctx.freshAccount('rate headers')
      const now = Date.parse((await ctx.control.clock()).now)
      await ctx.sleep(60_000 - (now % 60_000))
      const FIRST = 'a 200 carries X-RateLimit-Limit, -Remaining and -Reset; Remaining is limit − 1'
      const limit = await ctx.step(FIRST, async () => {
        const first = await ctx.call(account, 'listTeams')
        const limit = Number(first.headers['x-ratelimit-limit'])
        ctx.must(
          RATE,
          'a 200 carries X-RateLimit-Limit, -Remaining and -Reset',
          Number.isInteger(limit) &&
            first.headers['x-ratelimit-remaining'] !== undefined &&
            first.headers['x-ratelimit-reset'] !== undefined,
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
        if (!Number.isInteger(limit)) ctx.abort('no X-RateLimit-Limit to count against')
        return limit
      })
      await ctx.step(
        'failed authentication is not counted (an unknown key, and a revoked key of the same user); a 404 is',
        async () => {
          ctx.equal(
            'MUST',
            RATE,
            'a request that fails authentication is not counted',
            (await ctx.send(null, { operationId: 'listTeams', authorization: 'Bearer pres_nobody' })).status,
            401,
          )
          // A revoked key still names its owner: a server that counts it against the owner's bucket is caught here.
          const spare = await ctx.control.createKey({ userId: account.userId!, name: 'revoked for the rate limit' })
          await ctx.control.revokeKey(spare.keyId)
          const revokedKey: Actor = { key: spare.apiKey, label: 'a revoked key of the same user', keyId: spare.keyId }
          ctx.equal('MUST', RATE, 'a request with a revoked key is 401', (await ctx.call(revokedKey, 'listTeams')).status, 401)
          const refused = await ctx.call(account, 'getProject', { params: { slug: 'conformance-missing' } })
          ctx.equal(
            'MUST',
            RATE,
            'a 404 counts too, the refused requests do not: Remaining is limit − 2',
            Number(refused.headers['x-ratelimit-remaining']),
            limit! - 2,
            refused,
          )
        },
        { after: [FIRST] },
      )
      const LIMIT = 'the request after the limit is 429 with Remaining 0 and Retry-After'
      await ctx.step(
        LIMIT,
        async () => {
          let last = await ctx.send(account, { operationId: 'listTeams' }, { expectRateLimit: true })
          for (let n = 4; n <= limit! + 1; n++) last = await ctx.send(account, { operationId: 'listTeams' }, { expectRateLimit: true })
          ctx.equal(
            'MUST',
            RATE,
            'the request after the limit is 429 with Remaining 0',
            [last.status, last.headers['x-ratelimit-remaining']],
            [429, '0'],
            last,
          )
          // Seconds on a real clock; on a manual clock the emulator says "retry now" with a date in the past (docs/emulator-choices.md).
          const { mode } = await ctx.control.clock()
          const retryAfter = last.headers['retry-after'] ?? ''
          ctx.must(
            RATE,
            `a 429 has Retry-After (${mode === 'manual' ? 'the epoch date on a manual clock' : 'seconds'})`,
            mode === 'manual' ? retryAfter === 'Thu, 01 Jan 1970 00:00:00 GMT' : /^\d+$/.test(retryAfter),
            { actual: retryAfter, exchange: last },
          )
        },
        { after: [FIRST] },
      )
      await ctx.step(
        'a new window answers again',
        async () => {
          await ctx.control.advanceClock({ ms: 60_000 })
          const again = await ctx.call(account, 'listTeams')
          ctx.equal(
            'MUST',
            RATE,
            'after the window rolls, requests are answered again (limit − 1 left)',
            [again.status, Number(again.headers['x-ratelimit-remaining'])],
            [200, limit! - 1],
            again,
          )
        },
        { after: [LIMIT] },
      )
    },
  }),
  scenario({
    id: 'emulator.reset-and-state',
    title: 'State export and import round-trip; reset goes back to the seeded world and clears clock, faults, journal and rate windows',
    kind: 'emulator',
    // An emulator the kit started, or one at --control-url with --allow-reset: a reset clears everyone's state on it.
    needs: needs('emulator', 'controlPlane', 'reset'),
    phase: 'last',
    async run(ctx) {
      const control = ctx.control
      // The seeded fixtures when the kit started the emulator; else accounts of the run's own (its fixtures may be anyone's).
      const seeded = ctx.target.seededWorld
      await ctx.step('PUT /state accepts what GET /state gave: the state survives a round trip', async () => {
        const state = await control.getState()
        const summary = await control.putState(state)
        ctx.equal('MUST', CONTROL, 'PUT /state accepts what GET /state gave', summary.format, 'presentation-emulator/state@1')
        ctx.equal('MUST', CONTROL, 'the state survives a round trip', await control.getState(), state)
      })
      const BEFORE = 'before the reset: a project, a fault, a journal, a spent rate window and a clock moved on'
      const made = await ctx.step(BEFORE, async () => {
        const owner = seeded ? acme : await ctx.freshAccount('before reset')
        const spender = seeded ? bob : await ctx.freshAccount('rate window')
        const { slug } = await createProject(ctx, owner, 'before reset')
        await control.addFault({ operationId: 'getSlideGuide', status: 500, times: 0 })
        let limited = false
        for (let n = 0; n < 60 && !limited; n++)
          limited = (await ctx.send(spender, { operationId: 'listTeams' }, { expectRateLimit: true })).status === 429
        if (!limited) ctx.note('no 429 within 60 requests: the rate limit is off on this emulator, its windows are not checked')
        const moved = await control.advanceClock({ ms: 3_600_000 })
        return { slug, owner, limited, movedTo: Date.parse(moved.now) }
      })
      await control.reset()
      // First what reset clears, before any request adds to the journal again.
      await ctx.step(
        seeded
          ? 'reset clears the clock, the faults, the journal and the rate-limit windows'
          : 'reset clears the clock, the faults, the journal and the accounts made before it',
        async () => {
          const clock = (await control.clock()).now
          ctx.must(CONTROL, 'reset moves the clock back', Date.parse(clock) < made!.movedTo, {
            expected: `before ${new Date(made!.movedTo).toISOString()}`,
            actual: clock,
          })
          ctx.equal('MUST', CONTROL, 'reset clears the faults', (await control.listFaults()).faults, [])
          ctx.equal('MUST', CONTROL, 'reset clears the journal', (await control.listRequests()).requests, [])
          if (!seeded) {
            // Asked before any account is made again (a new one could be given the same key as one made before).
            const gone = await ctx.call(made!.owner, 'listTeams')
            ctx.equal('MUST', CONTROL, 'after reset, a key made since is refused (its account is gone)', gone.status, 401, gone)
          }
          // The accounts made before the reset are gone with it: a fresh one asks.
          const asker = seeded ? acme : await ctx.freshAccount('after reset')
          const guide = await ctx.call(asker, 'getSlideGuide', { params: { slug: 'conformance-missing' } })
          ctx.must(CONTROL, 'a fault added before the reset no longer fires', guide.status !== 500, {
            actual: guide.status,
            exchange: guide,
          })
          if (made!.limited && seeded)
            ctx.equal('MUST', CONTROL, 'reset clears the rate-limit windows', (await ctx.call(bob, 'listTeams')).status, 200)
        },
        { after: [BEFORE] },
      )
      if (seeded)
        await ctx.step(
          'after reset, the projects made since are gone and the seeded keys work',
          async () => {
            const gone = await ctx.call(acme, 'getProject', { params: { slug: made!.slug } })
            ctx.equal('MUST', CONTROL, 'after reset, projects created since are gone', gone.status, 404, gone)
            ctx.equal('MUST', CONTROL, 'after reset, the seeded keys work', (await ctx.call(alice, 'listTeams')).status, 200)
          },
          { after: [BEFORE] },
        )
    },
  }),
]
