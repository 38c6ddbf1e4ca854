/**
 * Rules that belong to no single operation: the keys' service prefix, and
 * which projects a key reaches and lists besides its own team's (a
 * collaborator's, another team's of the key's user). The projects they need
 * are arranged through a control plane, or named by flags on a deployment.
 */
import { Clauses, endpoint } from '../clauses.js'
import type { Actor } from '../actors.js'
import type { ScenarioContext } from '../context.js'
import { derivedCredential } from '../curl.js'
import { prefixOf } from '../facts/model.js'
import { listed, needs, scenario } from './support.js'

/** Another prefix of the same length: letters the key's prefix does not start with. */
function otherPrefix(prefix: string): string {
  const letters = 'qzxjvk'.split('').filter((c) => !prefix.startsWith(c))
  return `${letters[0]!.repeat(Math.max(1, prefix.length - 1))}_`
}

/** Reads a shared project as `main` and finds it in a full walk of the list. */
async function reachedAndListed(ctx: ScenarioContext, main: Actor, slug: string, how: string): Promise<void> {
  const read = await ctx.call(main, 'getProject', { params: { slug } })
  ctx.expectStatus(read, 200, Clauses.authentication)
  const list = await listed(ctx, main, slug)
  if (list.complete)
    ctx.must(endpoint('listProjects'), `a project ${how} is listed`, list.found, {
      expected: 'listed',
      actual: 'not listed',
      exchange: list.last!,
    })
  else ctx.note(`the list did not end within the walk's page cap: whether the project ${how} is listed was not checked`)
}

export const accessScenarios = [
  scenario({
    id: 'auth.prefix',
    title: 'Keys begin with one service prefix and an underscore; a key with another prefix is 401',
    covers: [
      ['listTeams', 401],
      ['listProjects', 401],
      ['listTeams', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const prefix = prefixOf(main.key)
      ctx.must(
        Clauses.authentication,
        'the key given begins with a service prefix followed by an underscore (rule 2)',
        prefix !== undefined,
        {
          expected: '<prefix>_…',
          actual: `${main.key.slice(0, 3)}… (no underscore)`,
        },
      )
      if (prefix === undefined) return
      // Every other key the run was given, or the target made, begins with the same fixed prefix.
      const others: Array<[string, string | undefined]> = [
        ['the other-team key', ctx.target.keys.other ?? (ctx.has('otherTeamKey') ? (await ctx.other()).key : undefined)],
        ['the revoked key', ctx.target.keys.revoked],
        ['the no-credits key', ctx.target.keys.noCredits],
      ]
      for (const [what, key] of others) {
        if (key === undefined) continue
        ctx.must(Clauses.authentication, `${what} begins with the same service prefix (rule 2: a fixed prefix)`, key.startsWith(prefix), {
          expected: `${prefix}…`,
          actual: `${key.slice(0, prefix.length)}…`,
        })
      }
      // The main key with its prefix replaced: everything after the prefix is the valid key's.
      const swapped = otherPrefix(prefix)
      const credential = derivedCredential(
        main.role === 'main' ? 'main' : 'extra',
        `its prefix ${prefix} replaced by ${swapped}`,
        (variable) => `${swapped}\${${variable}#*_}`,
      )
      for (const operationId of ['listTeams', 'listProjects'] as const) {
        const exchange = await ctx.send(
          null,
          { operationId, authorization: `Bearer ${swapped}${main.key.slice(prefix.length)}` },
          { credential },
        )
        ctx.expectError(exchange, 401, Clauses.authentication)
      }
      ctx.expectOk(await ctx.call(main, 'listTeams'))
    },
  }),
  scenario({
    id: 'access.collaborator',
    title: 'A project shared with the key’s user as a collaborator is reached and listed',
    needs: needs('collaboratorProject'),
    covers: [
      ['getProject', 200],
      ['listProjects', 200],
      ['createProject', 200],
      ['renameProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      let slug = ctx.target.fixtures.collaboratorProject
      if (slug === undefined) {
        // A project of a user who shares nothing else with the main key's, shared with it as a collaborator.
        const owner = await ctx.freshAccount('collaborator owner')
        slug = (await ctx.ok(owner, 'createProject', { body: { name: ctx.name('shared with a collaborator') } })).projectSlug
        ctx.created(slug)
        await ctx.control.addCollaborator(slug, { userId: main.userId! })
        // A project the kit made may be edited too ("The key can read or edit …").
        const rename = await ctx.call(main, 'renameProject', { params: { slug }, body: { name: ctx.name('renamed by a collaborator') } })
        ctx.expectStatus(rename, 200, Clauses.authentication)
      }
      await reachedAndListed(ctx, main, slug, 'shared with the key’s user as a collaborator')
    },
  }),
  scenario({
    id: 'access.team',
    title: 'A project of another team the key’s user belongs to is reached and listed',
    needs: needs('teamProject'),
    covers: [
      ['getProject', 200],
      ['listProjects', 200],
      ['createProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      let slug = ctx.target.fixtures.teamProject
      if (slug === undefined) {
        // A team of the main key's user and another, and a project made with a key scoped to that team.
        const mate = await ctx.freshAccount('teammate')
        const { teamId } = await ctx.control.createTeam({
          name: ctx.name('shared team').slice(0, 200),
          memberUserIds: [main.userId!, mate.userId!],
        })
        const key = await ctx.control.createKey({ userId: mate.userId!, teamId, name: 'team key' })
        const teamKey: Actor = { key: key.apiKey, label: 'a teammate’s key scoped to the shared team' }
        slug = (await ctx.ok(teamKey, 'createProject', { body: { name: ctx.name('owned by a shared team') } })).projectSlug
        ctx.created(slug)
      }
      await reachedAndListed(ctx, main, slug, 'of another team the key’s user belongs to')
    },
  }),
]
