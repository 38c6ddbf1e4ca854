/**
 * Servers for the conformance kit to judge, built from the emulator through
 * its test-only hooks (`testHooks`): one per realistic single defect, and
 * one spec-legal server that chose differently wherever the spec says "not
 * shown". Nothing here ships; the emulator only calls the hooks it is given.
 */
import { createHookedEmulator } from '../support/hooked-emulator.js'
import type { PlainOperationHandler, TestHooks } from '../support/test-hooks.js'
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type { RateDecision } from '../../src/core/rate-limiter.js'
import type { PresentationEmulator } from '../../src/index.js'
import { blankSlideFiles } from '../../src/content/slides.js'
import { appendSlides } from '../../src/model/projects.js'
import { unpublish } from '../../src/model/publishing.js'
import { fail } from '../../src/core/errors.js'
import type { OperationHandler } from '../../src/operations/index.js'
import { PROJECT_CONFIG_KEYS, type OperationId } from '../../src/schemas/index.js'
import { slugify } from '../../src/store/ids.js'
import { runConformance, type ConformanceOptions } from '../../conformance/index.js'
import type { Report as ConformanceReport } from '../../conformance/types.js'

const BASE_URL = 'http://127.0.0.1:4010/v1'

const decoder = new TextDecoder()
const encoder = new TextEncoder()

function bodyOf(request: EmulatorRequest): any {
  if (request.body === null) return undefined
  try {
    return JSON.parse(decoder.decode(request.body))
  } catch {
    return undefined
  }
}

function withBody(request: EmulatorRequest, body: unknown): EmulatorRequest {
  return { ...request, body: encoder.encode(JSON.stringify(body)) }
}

function jsonOf(response: EmulatorResponse): any {
  try {
    return response.body === null ? undefined : JSON.parse(response.body)
  } catch {
    return undefined
  }
}

function withJson(response: EmulatorResponse, json: unknown): EmulatorResponse {
  return { ...response, body: JSON.stringify(json) }
}

/** Wraps one operation's handler. */
function wrap<Id extends OperationId>(
  target: Id,
  make: (handler: PlainOperationHandler<Id>) => OperationHandler<Id>,
): TestHooks['wrapOperation'] {
  return ((id: OperationId, handler: PlainOperationHandler<OperationId>) =>
    id === target ? make(handler as never) : handler) as TestHooks['wrapOperation']
}

/** A single realistic defect, with the scenario and clause the kit must name. */
export interface Defect {
  name: string
  hooks: TestHooks
  /** A defect of the control plane's own contract: a wrapper around the emulator's fetch (the hooks reach only `/v1`). */
  control?: (fetch: PresentationEmulator['fetch']) => PresentationEmulator['fetch']
  /** A defect outside `/v1` or across requests (a site, the rate limit, a reset): a wrapper around the emulator's fetch. */
  wrap?: (fetch: PresentationEmulator['fetch']) => PresentationEmulator['fetch']
  /** A defect of the emulator's contract (not the spec's): the kit judges it with the emulator checks on. */
  emulator?: boolean
  /** Flags the run needs to reach the rule (`allowReset`, …). */
  options?: Partial<ConformanceOptions>
  /** The scenarios to run (a grep), and the clause a MUST failure must name. */
  grep: RegExp
  scenario: string
  clause: string | RegExp
}

export const DEFECTS: Defect[] = [
  {
    name: 'nextCursor on the last page',
    grep: /^pagination\.projects$/,
    scenario: 'pagination.projects',
    clause: 'Limits › cursor pagination',
    hooks: {
      wrapOperation: wrap('listProjects', (handler) => async (ctx) => {
        if (ctx.query.cursor === 'conformance-end') return { projects: [] }
        const page = await handler(ctx)
        return page.nextCursor === undefined ? { ...page, nextCursor: 'conformance-end' } : page
      }),
    },
  },
  {
    name: '403 for another team’s project',
    grep: /^isolation\.other-team$/,
    scenario: 'isolation.other-team',
    clause: 'Authentication',
    hooks: {
      transformResponse: ({ request, world }, response) => {
        const slug = decodeURIComponent(request.path.split('/')[3] ?? '')
        if (response.status === 404 && request.path.startsWith('/v1/projects/') && world.projectBySlug(slug) !== undefined) {
          return {
            ...withJson(response, { error: 'Forbidden' }),
            status: 403,
            headers: { ...response.headers, 'x-service-error-code': 'FORBIDDEN' },
          }
        }
        return response
      },
    },
  },
  {
    name: 'config replaced instead of merged',
    grep: /^config\.merge$/,
    scenario: 'config.merge',
    clause: /updateProjectConfig/,
    hooks: {
      wrapOperation: wrap('updateProjectConfig', (handler) => async (ctx) => {
        const project = ctx.world.projectBySlug(ctx.params.slug!)
        if (project !== undefined) await ctx.world.projects.update(project.id, (draft) => void (draft.config = {}))
        return handler(ctx)
      }),
    },
  },
  {
    name: 'jobs never complete',
    grep: /^generation\.lifecycle$/,
    scenario: 'generation.lifecycle',
    clause: 'States and transitions › Generation job status',
    hooks: {
      transformResponse: ({ operationId }, response) => {
        if (operationId !== 'getJobStatus' || response.status !== 200) return response
        const { finalDuration: _f, publishedUrl: _p, error: _e, ...job } = jsonOf(response)
        return withJson(response, { ...job, status: 'processing' })
      },
    },
  },
  {
    name: 'a 21st reference image accepted',
    grep: /^generation\.validation$/,
    scenario: 'generation.validation',
    clause: 'Limits',
    hooks: {
      transformRequest: ({ request, operationId }) => {
        const body = bodyOf(request)
        if (operationId !== 'generateProject' || !Array.isArray(body?.referenceImageUrls)) return request
        return withBody(request, { ...body, referenceImageUrls: body.referenceImageUrls.slice(0, 20) })
      },
    },
  },
  {
    name: 'revoked keys accepted',
    grep: /^auth\.revoked-key$/,
    scenario: 'auth.revoked-key',
    clause: 'Authentication',
    hooks: {
      authenticate: (header, standard, world) => {
        try {
          return standard(header)
        } catch (error) {
          const token = header?.replace(/^Bearer\s+/i, '') ?? ''
          const key = world.apiKeyByValue(token)
          if (key === undefined) throw error
          return { key, user: world.users.get(key.userId)!, team: world.teams.get(key.teamId)! }
        }
      },
    },
  },
  {
    name: 'the rate limit counted per key instead of per user',
    grep: /^rate-limit\.per-user$/,
    scenario: 'rate-limit.per-user',
    clause: 'Limits',
    hooks: { rateLimit: (principal, standard) => standard(principal.key.id) },
  },
  {
    name: 'a rename changes the slug',
    grep: /^projects\.rename$/,
    scenario: 'projects.rename',
    clause: /renameProject/,
    hooks: {
      wrapOperation: wrap('renameProject', (handler) => async (ctx) => {
        const result = await handler(ctx)
        const project = ctx.world.projectBySlug(ctx.params.slug!)!
        await ctx.world.projects.update(project.id, (draft) => void (draft.slug = `${slugify(ctx.body.name, 30)}-${project.id.slice(-4)}`))
        return result
      }),
    },
  },
  {
    name: 'a duplicate starts published',
    grep: /^projects\.duplicate$/,
    scenario: 'projects.duplicate',
    clause: 'States and transitions › Project publication',
    hooks: {
      wrapOperation: wrap('duplicateProject', (handler) => async (ctx) => {
        const result = await handler(ctx)
        await ctx.world.projects.update(result.projectId, (draft) => void (draft.publishedAt = ctx.env.clock.iso()))
        return result
      }),
    },
  },
  {
    name: 'errors without X-Service-Error-Code',
    grep: /^projects\.not-found$/,
    scenario: 'projects.not-found',
    clause: 'Errors',
    hooks: {
      transformResponse: (_, response) => {
        const { 'x-service-error-code': _code, ...headers } = response.headers
        return { ...response, headers }
      },
    },
  },
  {
    name: 'a 201-character name accepted on create (cut to 200)',
    grep: /^projects\.create-bounds$/,
    scenario: 'projects.create-bounds',
    clause: 'Limits',
    hooks: {
      transformRequest: ({ request, operationId }) => {
        const body = bodyOf(request)
        if (operationId !== 'createProject' || typeof body?.name !== 'string') return request
        return withBody(request, { ...body, name: body.name.slice(0, 200) })
      },
    },
  },
  {
    name: 'a config write answers a versionId that is not the latest version',
    grep: /^versions\.config$/,
    scenario: 'versions.config',
    clause: 'Versioning',
    hooks: {
      transformResponse: ({ operationId }, response) =>
        operationId === 'updateProjectConfig' && response.status === 200
          ? withJson(response, { ...jsonOf(response), versionId: 'ver_stale' })
          : response,
    },
  },
  {
    name: 'unpublishing keeps publishedUrl',
    grep: /^publishing\.state-machine$/,
    scenario: 'publishing.state-machine',
    clause: 'States and transitions › Project publication',
    hooks: {
      transformResponse: ({ operationId }, response) => {
        if (operationId !== 'getProject' || response.status !== 200) return response
        const detail = jsonOf(response)
        return detail.publishedAt === null
          ? withJson(response, { ...detail, publishedUrl: `https://sites.example.net/${detail.slug}` })
          : response
      },
    },
  },
  {
    name: 'the published filter ignored',
    grep: /^pagination\.published$/,
    scenario: 'pagination.published',
    clause: /listProjects/,
    hooks: {
      transformRequest: ({ request, operationId }) =>
        operationId === 'listProjects'
          ? {
              ...request,
              query: request.query
                .split('&')
                .filter((part) => !part.startsWith('published='))
                .join('&'),
            }
          : request,
    },
  },
  {
    name: 'a 429 without the rate-limit headers',
    grep: /^rate-limit\.429$/,
    scenario: 'rate-limit.429',
    clause: 'Errors',
    hooks: {
      transformResponse: (_, response) => {
        if (response.status !== 429) return response
        const headers = Object.fromEntries(Object.entries(response.headers).filter(([name]) => !name.startsWith('x-ratelimit-')))
        return { ...response, headers }
      },
    },
  },
  {
    name: 'a slide update that resets the files it was not sent',
    grep: /^slides\.update$/,
    scenario: 'slides.update',
    clause: /updateSlide/,
    hooks: {
      transformRequest: ({ request, operationId }) => {
        const body = bodyOf(request)
        if (operationId !== 'updateSlide' || typeof body?.files !== 'object' || body.files === null) return request
        return withBody(request, {
          files: { 'slide.content.json': '{"title":"","blocks":[]}', 'slide.controls.json': '{"controls":[]}', ...body.files },
        })
      },
    },
  },
  {
    name: 'date-times without an offset',
    grep: /^projects\.list$/,
    scenario: 'projects.list',
    clause: /listProjects/,
    hooks: {
      transformResponse: ({ operationId }, response) => {
        if (operationId !== 'listProjects' || response.status !== 200) return response
        const page = jsonOf(response)
        return withJson(response, {
          ...page,
          projects: page.projects.map((p: any) => ({ ...p, updatedAt: p.updatedAt.replace(/\.\d+Z$/, '') })),
        })
      },
    },
  },
  {
    name: 'a missing prompt accepted (defaulted)',
    grep: /^generation\.validation$/,
    scenario: 'generation.validation',
    clause: 'Limits',
    hooks: {
      transformRequest: ({ request, operationId }) => {
        const body = bodyOf(request)
        if (operationId !== 'generateProject' || body === undefined || body.prompt !== '') return request
        return withBody(request, { ...body, prompt: 'Untitled presentation' })
      },
    },
  },
  // Rules that belong to no single operation.
  {
    name: 'another team’s template accepted on generate',
    grep: /^generation\.template-scope$/,
    scenario: 'generation.template-scope',
    clause: /generateProject/,
    hooks: {
      wrapOperation: wrap('generateProject', (handler) => async (ctx) => {
        const template = ctx.body.templateId === undefined ? undefined : ctx.world.templates.get(ctx.body.templateId)
        if (template === undefined || template.teamId === ctx.principal.team.id) return handler(ctx)
        // The template is looked up in its own team, not the key's.
        return handler({ ...ctx, principal: { ...ctx.principal, team: ctx.world.teams.get(template.teamId)! } })
      }),
    },
  },
  {
    name: 'a key whose prefix differs accepted',
    grep: /^auth\.prefix$/,
    scenario: 'auth.prefix',
    clause: 'Authentication',
    hooks: {
      // Whatever comes before the first underscore is ignored.
      authenticate: (header, standard) => standard(header?.replace(/^(Bearer\s+)[a-z]+_/i, '$1pres_')),
    },
  },
  {
    name: 'a project shared with the key’s user as a collaborator missing from the list',
    grep: /^access\.collaborator$/,
    scenario: 'access.collaborator',
    clause: /listProjects/,
    hooks: {
      wrapOperation: wrap('listProjects', (handler) => async (ctx) => {
        const page = await handler(ctx)
        const teams = ctx.world.teamIdsOf(ctx.principal.user.id)
        return { ...page, projects: page.projects.filter((p) => teams.has(ctx.world.projects.get(p.id)!.teamId)) }
      }),
    },
  },
  {
    name: 'a project of another team the key’s user belongs to missing from the list',
    grep: /^access\.team$/,
    scenario: 'access.team',
    clause: /listProjects/,
    hooks: {
      wrapOperation: wrap('listProjects', (handler) => async (ctx) => {
        const page = await handler(ctx)
        return { ...page, projects: page.projects.filter((p) => ctx.world.projects.get(p.id)!.teamId === ctx.principal.team.id) }
      }),
    },
  },
  // The rules issue 36 found the kit let through.
  ...SIX_RULES_DEFECTS(),
  // Rules of the control plane's own contract (emulator-contract.md §5).
  controlDefect('a fault with times 0 fires only once', async (request, forward) => {
    if (request.method !== 'POST' || !request.path.endsWith('/_emulator/faults')) return forward()
    const body = JSON.parse(request.text)
    return forward(body.times === 0 ? JSON.stringify({ ...body, times: 1 }) : undefined)
  }),
  controlDefect('a fault without a code answers INTERNAL_ERROR whatever its status', async (request, forward) => {
    if (request.method !== 'POST' || !request.path.endsWith('/_emulator/faults')) return forward()
    const body = JSON.parse(request.text)
    return forward(body.code === undefined ? JSON.stringify({ ...body, code: 'INTERNAL_ERROR' }) : undefined)
  }),
  controlDefect('DELETE /faults removes only the first fault', async (request, forward, send) => {
    if (request.method !== 'DELETE' || !request.path.endsWith('/_emulator/faults')) return forward()
    const { faults } = (await (await send('GET', '/_emulator/faults')).json()) as { faults: Array<{ id: string }> }
    if (faults[0] !== undefined) await send('DELETE', `/_emulator/faults/${faults[0].id}`)
    return Response.json({ removed: faults.length === 0 ? 0 : 1 })
  }),
  controlDefect('DELETE /requests leaves the journal as it was', async (request, forward) => {
    if (request.method !== 'DELETE' || !request.path.endsWith('/_emulator/requests')) return forward()
    const { requests } = (await (await forward(undefined, 'GET')).json()) as { requests: unknown[] }
    return Response.json({ removed: requests.length })
  }),
  controlDefect('an invalid state document is half applied', async (request, forward, send) => {
    if (request.method !== 'PUT' || !request.path.endsWith('/_emulator/state')) return forward()
    const answer = await forward()
    // The clock was read from the document before it was found invalid, and kept.
    if (answer.status === 400) await send('POST', '/_emulator/clock/advance', { ms: 1 })
    return answer
  }),
]

/**
 * The six rules the kit once let through (issue 36), each as the defect a
 * server had: a function, since the list above is built before the helpers
 * below it are.
 */
function SIX_RULES_DEFECTS(): Defect[] {
  return [
    {
      name: 'theme deep-merged instead of replaced whole',
      emulator: true,
      grep: /^emulator\.config-merge$/,
      scenario: 'emulator.config-merge',
      clause: 'Emulator contract §4 › choices for "not shown" items',
      hooks: {
        transformRequest: ({ request, operationId, world }) => {
          const body = bodyOf(request)
          if (operationId !== 'updateProjectConfig' || typeof body?.config?.theme !== 'object') return request
          const stored = world.projectBySlug(decodeURIComponent(request.path.split('/')[3] ?? ''))?.config.theme
          if (stored === undefined) return request
          return withBody(request, { ...body, config: { ...body.config, theme: deepMerge(stored, body.config.theme) } })
        },
      },
    },
    {
      name: 'a published site still served after unpublishing (a cache in front of it)',
      emulator: true,
      grep: /^publishing\.state-machine$/,
      scenario: 'publishing.state-machine',
      clause: 'Emulator contract §6 › pages',
      hooks: {},
      wrap: (fetch) => {
        const cache = new Map<string, string>()
        return async (input, init) => {
          const request = new Request(input, init)
          const url = new URL(request.url)
          const answer = await fetch(request)
          if (!url.pathname.startsWith('/sites/') || request.method !== 'GET') return answer
          if (answer.status === 200) {
            const text = await answer.text()
            cache.set(url.href, text)
            return new Response(text, { status: 200, headers: answer.headers })
          }
          const kept = cache.get(url.href)
          return kept === undefined ? answer : new Response(kept, { status: 200, headers: { 'content-type': 'text/html; charset=utf-8' } })
        }
      },
    },
    {
      name: 'the editing indicator on an unknown slide answered 200',
      emulator: true,
      grep: /^slides\.editing$/,
      scenario: 'slides.editing',
      clause: 'Emulator contract §4 › choices for "not shown" items',
      hooks: {
        wrapOperation: wrap('startSlideEditing', (handler) => async (ctx) => {
          try {
            return await handler(ctx)
          } catch (error) {
            if ((error as { status?: number }).status !== 404) throw error
            return { success: true as const }
          }
        }),
      },
    },
    {
      name: 'a revoked key counted against its owner’s rate limit',
      emulator: true,
      grep: /^emulator\.rate-limit-headers$/,
      scenario: 'emulator.rate-limit-headers',
      clause: 'Emulator contract §3 › rate limit',
      hooks: {},
      wrap: (fetch) => {
        // The server knows whose a revoked key was, and spends a request of the owner's bucket for it.
        const keys = new Map<string, { apiKey: string; userId: string; revoked: boolean }>()
        return async (input, init) => {
          const request = new Request(input, init)
          const url = new URL(request.url)
          const text = request.method === 'GET' || request.method === 'DELETE' ? undefined : await request.text()
          const answer = await fetch(url, {
            method: request.method,
            headers: request.headers,
            ...(text === undefined ? {} : { body: text }),
          })
          if (url.pathname === '/_emulator/accounts' || url.pathname === '/_emulator/keys') {
            if (answer.status !== 201) return answer
            const made = (await answer.clone().json()) as { keyId: string; apiKey: string; userId?: string }
            const userId = made.userId ?? JSON.parse(text ?? '{}').userId
            keys.set(made.keyId, { apiKey: made.apiKey, userId, revoked: false })
          } else if (url.pathname.startsWith('/_emulator/keys/') && request.method === 'DELETE') {
            const key = keys.get(decodeURIComponent(url.pathname.slice('/_emulator/keys/'.length)))
            if (key !== undefined) key.revoked = true
          } else if (url.pathname.startsWith('/v1/') && answer.status === 401) {
            const token = /^Bearer\s+(\S+)$/i.exec(request.headers.get('authorization') ?? '')?.[1]
            const revoked = [...keys.values()].find((k) => k.revoked && k.apiKey === token)
            const live = revoked === undefined ? undefined : [...keys.values()].find((k) => !k.revoked && k.userId === revoked.userId)
            if (live !== undefined) await fetch(new URL('/v1/teams', url), { headers: { authorization: `Bearer ${live.apiKey}` } })
          }
          return answer
        }
      },
    },
    {
      name: 'a reset that keeps the faults',
      emulator: true,
      options: { allowReset: true },
      grep: /^emulator\.reset-and-state$/,
      scenario: 'emulator.reset-and-state',
      clause: 'Emulator contract §5 › control plane',
      hooks: {},
      wrap: (fetch) => async (input, init) => {
        const request = new Request(input, init)
        const url = new URL(request.url)
        if (request.method !== 'POST' || url.pathname !== '/_emulator/reset') return fetch(request)
        const { faults } = (await (await fetch(new URL('/_emulator/faults', url))).json()) as {
          faults: Array<Record<string, unknown>>
        }
        const answer = await fetch(request)
        for (const fault of faults) {
          // Added again as they were: what a listing shows, less its bookkeeping and empty fields.
          const { id: _id, hits: _hits, remaining: _remaining, ...kept } = fault
          const body = Object.fromEntries(Object.entries(kept).filter(([, value]) => value !== null))
          const added = await fetch(new URL('/_emulator/faults', url), {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify(body),
          })
          if (added.status !== 201) throw new Error(`the defect could not keep a fault: ${await added.text()}`)
        }
        return answer
      },
    },
  ]
}

/**
 * A defect of the control plane's own contract: the emulator with its control
 * plane wrapped (`decide` sees each control-plane request and answers it,
 * forwarding it, changed or not, or making requests of its own).
 */
function controlDefect(
  name: string,
  decide: (
    request: { method: string; path: string; text: string },
    forward: (text?: string, method?: string) => Promise<Response>,
    send: (method: string, path: string, body?: unknown) => Promise<Response>,
  ) => Promise<Response>,
): Defect {
  return {
    name,
    grep: /^emulator\.control-plane$/,
    scenario: 'emulator.control-plane',
    clause: 'Emulator contract §5 › control plane',
    hooks: {},
    control: (fetch) => async (input, init) => {
      const request = new Request(input, init)
      const url = new URL(request.url)
      if (!url.pathname.startsWith('/_emulator/')) return fetch(request)
      const text = request.method === 'GET' || request.method === 'DELETE' ? '' : await request.text()
      const send = (method: string, path: string, body?: unknown) =>
        fetch(new URL(path, url.origin), {
          method,
          headers: { 'content-type': 'application/json' },
          ...(body === undefined ? {} : { body: JSON.stringify(body) }),
        })
      const forward = (changed?: string, method?: string) =>
        fetch(url, {
          method: method ?? request.method,
          headers: request.headers,
          ...((method ?? request.method) === 'GET' || (method ?? request.method) === 'DELETE' ? {} : { body: changed ?? text }),
        })
      return decide({ method: request.method, path: url.pathname, text }, forward, send)
    },
  }
}

/** The fetch a defect's server answers with: the emulator's, wrapped by the defect when it lives outside the hooks. */
export function defectFetch(defect: Defect, emulator: PresentationEmulator): PresentationEmulator['fetch'] {
  const wrapped = defect.wrap === undefined ? emulator.fetch : defect.wrap(emulator.fetch)
  return defect.control === undefined ? wrapped : defect.control(wrapped)
}

/** An emulator with one defect, reached as a deployment with a control plane. */
export function brokenEmulator(defect: Defect): PresentationEmulator {
  return createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, defect.hooks)
}

// --------------------------------------------------------------------- spec-legal

const LIVE = 'live_'
const CODES: Record<string, string> = {
  VALIDATION_ERROR: 'bad_request',
  UNAUTHORIZED: 'auth_required',
  INSUFFICIENT_CREDITS: 'payment_required',
  NOT_FOUND: 'not_found',
  METHOD_NOT_ALLOWED: 'not_found',
  PAYLOAD_TOO_LARGE: 'bad_request',
  RATE_LIMITED: 'slow_down',
  INTERNAL_ERROR: 'oops',
  DISPATCH_FAILED: 'upstream',
}
const PUBLIC_ORIGIN = 'http://127.0.0.1:4010/sites/'
const OTHER_HOST = 'https://published.example.net/'

/** Deep-merges plain objects; arrays and other values replace. */
function deepMerge(base: unknown, patch: unknown): unknown {
  if (
    typeof base !== 'object' ||
    base === null ||
    Array.isArray(base) ||
    typeof patch !== 'object' ||
    patch === null ||
    Array.isArray(patch)
  )
    return patch
  const out: Record<string, unknown> = { ...(base as Record<string, unknown>) }
  for (const [key, value] of Object.entries(patch)) out[key] = deepMerge(out[key], value)
  return out
}

/** Every project the emulator's own list would show (its filter applied), in one call: the limit was checked already. */
async function everyProject(handler: OperationHandler<any>, ctx: any): Promise<any[]> {
  const page: any = await handler({ ...ctx, query: { ...ctx.query, limit: Number.MAX_SAFE_INTEGER, cursor: undefined } })
  return [...page.projects]
}

/**
 * A server that follows the spec and chose differently wherever it says "not
 * shown": key prefix `live_`, its own error codes, projects listed by name
 * with offset cursors (an undecodable cursor restarts the list), deep config
 * merge with unknown keys dropped, 404 for a wrong method, 400 for a huge
 * body, rate-limit headers only on 429 with a sliding window, credits
 * charged at completion, generation that does not publish, other model names
 * and duration texts, no create-slide or slide-guide at the emulator's
 * paths, and published sites on another host.
 */
export function specLegalEmulator(): PresentationEmulator {
  const windows = new Map<string, number[]>()
  const charged = new Set<string>()
  const hooks: TestHooks = {
    authenticate: (header, standard) => {
      const match = /^Bearer\s+(\S+)$/i.exec(header ?? '')
      const token = match?.[1]
      if (token === undefined || !token.startsWith(LIVE)) return standard(undefined)
      return standard(`Bearer pres_${token.slice(LIVE.length)}`)
    },
    rateLimit: (principal, _standard, env): RateDecision => {
      const now = env.clock.now()
      const log = (windows.get(principal.user.id) ?? []).filter((time) => time > now - 60_000)
      windows.set(principal.user.id, log)
      if (log.length >= 50) {
        const wait = Math.max(1, Math.ceil((log[0]! + 60_000 - now) / 1000))
        return {
          allowed: false,
          headers: {
            'x-ratelimit-limit': '50',
            'x-ratelimit-remaining': '0',
            'x-ratelimit-reset': String(wait),
            'retry-after': String(wait),
          },
        }
      }
      log.push(now)
      return { allowed: true, headers: {} }
    },
    transformRequest: ({ request, operationId, world }) => {
      const body = bodyOf(request)
      if (operationId === 'updateProjectConfig' && body?.config !== undefined && typeof body.config === 'object') {
        const slug = decodeURIComponent(request.path.split('/')[3] ?? '')
        const known = Object.fromEntries(Object.entries(body.config).filter(([key]) => (PROJECT_CONFIG_KEYS as string[]).includes(key)))
        const stored = world.projectBySlug(slug)?.config ?? {}
        const merged = deepMerge(stored, known) as Record<string, unknown>
        // Send back only what the body touched, merged deeply with what is stored.
        return withBody(request, { config: Object.fromEntries(Object.keys(known).map((key) => [key, merged[key]])) })
      }
      if (operationId === 'generateProject' && body?.model !== undefined) {
        const models: Record<string, string> = { 'swift-1': 'fast', 'deep-2': 'quality' }
        return withBody(request, { ...body, model: models[body.model] ?? `unknown-${body.model}` })
      }
      return request
    },
    wrapOperation: ((id: OperationId, handler: OperationHandler<any>): OperationHandler<any> => {
      if (id === 'listProjects') {
        return async (ctx: any) => {
          const all = await everyProject(handler, ctx)
          all.sort((a, b) => a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1))
          const offset = /^\d+$/.test(ctx.query.cursor ?? '') ? Number(ctx.query.cursor) : 0
          const projects = all.slice(offset, offset + ctx.query.limit)
          return offset + ctx.query.limit < all.length ? { projects, nextCursor: String(offset + ctx.query.limit) } : { projects }
        }
      }
      if (id === 'generateProject') {
        // Credits are charged at completion: give back the one taken at acceptance.
        return async (ctx) => {
          const result: any = await handler(ctx)
          await ctx.world.teams.update(ctx.principal.team.id, (draft) => void (draft.credits += 1))
          return result
        }
      }
      if (id === 'getJobStatus') {
        // Generation does not publish, and the credit is taken when the job is seen completed.
        return async (ctx) => {
          const job: any = await handler(ctx)
          if (job.status === 'completed' && !charged.has(job.jobId)) {
            charged.add(job.jobId)
            const project = job.projectId === null ? undefined : ctx.world.projects.get(job.projectId)
            if (project?.publishedAt) await unpublish(ctx.world, project.id)
            const team = ctx.world.teams.get(job.teamId)
            if (team !== undefined && team.credits > 0) await ctx.world.teams.update(team.id, (draft) => void (draft.credits -= 1))
          }
          const { publishedUrl: _p, ...rest } = job
          return job.status === 'completed' ? { ...rest, finalDuration: 'PT3S' } : rest
        }
      }
      return handler
    }) as TestHooks['wrapOperation'],
    transformResponse: ({ operationId }, response) => {
      let out = response
      if (operationId === 'createSlide' || operationId === 'getSlideGuide' || operationId === 'getSlideFiles') {
        out = { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'No such route' }) }
      }
      if (out.status === 405)
        out = { ...out, status: 404, headers: Object.fromEntries(Object.entries(out.headers).filter(([name]) => name !== 'allow')) }
      if (out.status === 413) out = { ...out, status: 400 }
      const code = out.headers['x-service-error-code']
      if (code !== undefined) out = { ...out, headers: { ...out.headers, 'x-service-error-code': CODES[code] ?? 'other' } }
      if (operationId === 'generateProject' && out.status === 200)
        out = withJson(out, { ...jsonOf(out), estimatedDuration: 'about 4 minutes' })
      if (out.body?.includes(PUBLIC_ORIGIN)) out = { ...out, body: out.body.split(PUBLIC_ORIGIN).join(OTHER_HOST) }
      return out
    },
  }
  return createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, hooks)
}

/** The spec-legal server's keys: the fixture keys under its own prefix. */
export const LIVE_KEYS = {
  main: 'live_test_alice_acme',
  other: 'live_test_bob',
  revoked: 'live_test_revoked',
  noCredits: 'live_test_bob',
}

// --------------------------------------------------------------------- a second spec-legal server

const SK = 'sk_'
const SK_CODES: Record<string, string> = {
  VALIDATION_ERROR: 'E_INVALID',
  UNAUTHORIZED: 'E_AUTH',
  INSUFFICIENT_CREDITS: 'E_CREDITS',
  NOT_FOUND: 'E_MISSING',
  METHOD_NOT_ALLOWED: 'E_METHOD',
  PAYLOAD_TOO_LARGE: 'E_SIZE',
  RATE_LIMITED: 'E_RATE',
  INTERNAL_ERROR: 'E_INTERNAL',
  DISPATCH_FAILED: 'E_DISPATCH',
}

/** Every object's keys in reverse order, at every depth: JSON objects are unordered. */
function reversedKeys(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(reversedKeys)
  if (typeof value !== 'object' || value === null) return value
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([k, v]) => [k, reversedKeys(v)]),
  )
}

/** A JSON file reformatted (two-space indentation), as a server that normalises what it saves would. */
function reformatted(text: unknown): unknown {
  if (typeof text !== 'string') return text
  try {
    return JSON.stringify(JSON.parse(text), null, 2)
  } catch {
    return text
  }
}

/**
 * A second server that follows the spec, and differs from the first (and
 * from the emulator) on every fact the table of facts marks as learned, and
 * on more the spec leaves open: key prefix `sk_`; a new project's config is
 * `{"tokens":{"palette":[],"fonts":[]},"showBrandLogo":false}` and it comes
 * with one blank slide; duplicates are named "Copy of …", generated
 * projects "Deck: …"; slide files are saved reformatted; every object's keys
 * come in reverse order, and every body carries an extra `requestId`;
 * projects are listed oldest first with opaque cursors (an undecodable one
 * is 400), slides and teams in reverse order; editor, site and URL
 * configuration on other hosts; its own error codes and no hints;
 * rate-limit headers on every answer with a reset given in seconds from now;
 * other model names and duration texts; any key may read any job; slide
 * files that do not validate are 422.
 */
export function secondSpecLegalEmulator(): PresentationEmulator {
  let requestIds = 0
  const hooks: TestHooks = {
    authenticate: (header, standard) => {
      const token = /^Bearer\s+(\S+)$/i.exec(header ?? '')?.[1]
      if (token === undefined || !token.startsWith(SK)) return standard(undefined)
      return standard(`Bearer pres_${token.slice(SK.length)}`)
    },
    rateLimit: (principal, standard, env): RateDecision => {
      const decision = standard(principal.user.id)
      const reset = Number(decision.headers['x-ratelimit-reset'])
      const headers = { ...decision.headers }
      if (Number.isFinite(reset)) headers['x-ratelimit-reset'] = String(Math.max(0, reset - Math.floor(env.clock.now() / 1000)))
      return { ...decision, headers }
    },
    transformRequest: ({ request, operationId }) => {
      const body = bodyOf(request)
      if (operationId === 'updateSlide' && typeof body?.files === 'object' && body.files !== null)
        return withBody(request, {
          ...body,
          files: Object.fromEntries(
            Object.entries(body.files).map(([name, text]) => [name, name.endsWith('.json') ? reformatted(text) : text]),
          ),
        })
      if (operationId === 'generateProject' && body?.model !== undefined) {
        const models: Record<string, string> = { standard: 'fast', pro: 'quality' }
        return withBody(request, { ...body, model: models[body.model] ?? `unknown-${body.model}` })
      }
      return request
    },
    wrapOperation: ((id: OperationId, handler: OperationHandler<any>): OperationHandler<any> => {
      if (id === 'createProject') {
        return async (ctx: any) => {
          const result: any = await handler(ctx)
          await ctx.world.projects.update(result.projectId, (draft: any) => {
            draft.config = { tokens: { palette: [], fonts: [] }, showBrandLogo: false }
          })
          await appendSlides(ctx.world, result.projectId, [{ name: 'Title slide', files: blankSlideFiles() }], ctx.env.clock.iso())
          return result
        }
      }
      if (id === 'duplicateProject') {
        return async (ctx: any) => {
          const result: any = await handler(ctx)
          const source = ctx.world.projectBySlug(ctx.params.slug)!
          const name = `Copy of ${source.name}`.slice(0, 200)
          await ctx.world.projects.update(result.projectId, (draft: any) => void (draft.name = name))
          return { ...result, name }
        }
      }
      if (id === 'getJobStatus') {
        return async (ctx: any) => {
          // Any key may read any job (the spec scopes projects, not jobs); a completed job names its project its own way.
          const job = ctx.world.jobs.get(ctx.params.jobId)
          const team = job === undefined ? undefined : ctx.world.teams.get(job.teamId)
          const result: any = await handler(team === undefined ? ctx : { ...ctx, principal: { ...ctx.principal, team } })
          const project = result.projectId === null ? undefined : ctx.world.projects.get(result.projectId)
          if (result.status === 'completed' && project !== undefined && !project.name.startsWith('Deck: ')) {
            const prompt = job?.prompt ?? ''
            await ctx.world.projects.update(project.id, (draft: any) => void (draft.name = `Deck: ${String(prompt).slice(0, 60)}`))
          }
          return result
        }
      }
      if (id === 'listProjects') {
        return async (ctx: any) => {
          const all = await everyProject(handler, ctx)
          const created = (p: any) => ctx.world.projects.get(p.id)?.createdAt ?? ''
          all.sort((a, b) => created(a).localeCompare(created(b)) || (a.id < b.id ? -1 : 1))
          let offset = 0
          if (ctx.query.cursor !== undefined) {
            const decoded = /^o(\d+)$/.exec(Buffer.from(ctx.query.cursor, 'base64url').toString('utf8'))
            if (decoded === null) throw fail.validation('cursor: not a cursor this server handed out')
            offset = Number(decoded[1])
          }
          const projects = all.slice(offset, offset + ctx.query.limit)
          const next = offset + ctx.query.limit
          return next < all.length ? { projects, nextCursor: Buffer.from(`o${next}`).toString('base64url') } : { projects }
        }
      }
      if (id === 'listSlides' || id === 'listTeams') {
        return async (ctx: any) => {
          const result: any = await handler(ctx)
          const key = id === 'listSlides' ? 'slides' : 'teams'
          return { ...result, [key]: [...result[key]].reverse() }
        }
      }
      return handler
    }) as TestHooks['wrapOperation'],
    transformResponse: ({ operationId }, response) => {
      let out = response
      if (operationId === 'createSlide' || operationId === 'getSlideGuide' || operationId === 'getSlideFiles')
        out = { status: 404, headers: { 'content-type': 'application/json' }, body: JSON.stringify({ error: 'No such route' }) }
      if (operationId === 'updateSlide' && out.status === 400) out = { ...out, status: 422 }
      const code = out.headers['x-service-error-code']
      if (code !== undefined) out = { ...out, headers: { ...out.headers, 'x-service-error-code': SK_CODES[code] ?? 'E_OTHER' } }
      let json = jsonOf(out)
      if (json === undefined || typeof json !== 'object' || json === null || Array.isArray(json)) return out
      if (out.status >= 400) {
        const { hint: _hint, ...rest } = json
        json = rest
      }
      if (operationId === 'generateProject' && out.status === 200)
        json = { ...json, estimatedDuration: json.templateId === undefined ? '4 minutes' : '2 minutes' }
      requestIds += 1
      const text = JSON.stringify(reversedKeys({ ...json, requestId: `req_${requestIds}` }))
        .split('http://127.0.0.1:4010/editor/')
        .join('https://app.decks.example/p/')
        .split('http://127.0.0.1:4010/sites/')
        .join('https://view.decks.example/')
        .split('.sites.localhost')
        .join('.decks.example')
      return { ...out, body: text }
    },
  }
  return createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, hooks)
}

/** The second spec-legal server's keys: the fixture keys under its own prefix. */
export const SK_KEYS = {
  main: 'sk_test_alice_acme',
  other: 'sk_test_bob',
  revoked: 'sk_test_revoked',
  noCredits: 'sk_test_bob',
}

/** Every spec-legal server of the tests, with its keys: the kit and the walks must pass each of them. */
export const SPEC_LEGAL_SERVERS = [
  { name: 'the spec-legal server (live_ keys)', make: specLegalEmulator, keys: LIVE_KEYS },
  { name: 'the second spec-legal server (sk_ keys)', make: secondSpecLegalEmulator, keys: SK_KEYS },
] as const

/** The emulator's manual clock as the kit's clock: waits move it instead of real time. */
export function manualClockOf(server: PresentationEmulator): NonNullable<ConformanceOptions['clock']> {
  return {
    now: async () => Date.parse(server.control.clock().now),
    sleep: async (ms: number) => void (await server.control.advanceClock({ ms: Math.max(0, Math.ceil(ms)) })),
  }
}

/**
 * The seeded world's projects a deployment's person would name with
 * `--collaborator-project` and `--team-project` for Alice's Acme key: Bob's
 * project shared with Alice, and a project of Alice's personal team.
 */
export async function sharedFixtures(server: PresentationEmulator): Promise<{ collaboratorProject: string; teamProject: string }> {
  const state = (await server.control.getState()) as unknown as {
    users: Array<{ id: string; name: string }>
    teams: Array<{ id: string; name: string }>
    projects: Array<{ slug: string; teamId: string; collaborators: string[] }>
  }
  const alice = state.users.find((u) => u.name.startsWith('Alice'))!.id
  const personal = state.teams.find((t) => t.name.startsWith('Alice'))!.id
  return {
    collaboratorProject: state.projects.find((p) => p.collaborators.includes(alice))!.slug,
    teamProject: state.projects.find((p) => p.teamId === personal)!.slug,
  }
}

/** The kit against a spec-legal server as a deployment: every key and fixture flag, writes and generation, no control plane. */
export async function runAsDeployment(
  server: PresentationEmulator,
  options: Partial<ConformanceOptions> = {},
  keys: typeof LIVE_KEYS = LIVE_KEYS,
): Promise<ConformanceReport> {
  return runConformance({
    ...(await sharedFixtures(server)),
    fetch: server.fetch,
    baseUrl: BASE_URL,
    apiKey: keys.main,
    otherTeamKey: keys.other,
    revokedKey: keys.revoked,
    noCreditsKey: keys.noCredits,
    allowWrites: true,
    allowGeneration: true,
    clock: manualClockOf(server),
    ...options,
  })
}

/** The kit against one defect's broken emulator, with its control plane, on the defect's scenarios. */
export function runAgainstDefect(
  defect: Defect,
  options: Partial<ConformanceOptions> = {},
  wrapFetch: (fetch: PresentationEmulator['fetch']) => ConformanceOptions['fetch'] = (fetch) => fetch,
): Promise<ConformanceReport> {
  const emulator = brokenEmulator(defect)
  const fetch = defectFetch(defect, emulator)
  return runConformance({
    fetch: wrapFetch(fetch),
    baseUrl: BASE_URL,
    controlUrl: 'http://127.0.0.1:4010/_emulator',
    // A defect of the emulator's own contract is judged by the emulator checks.
    emulatorChecks: defect.control !== undefined || defect.emulator === true,
    allowWrites: true,
    allowGeneration: true,
    grep: defect.grep,
    seed: 11,
    ...defect.options,
    ...options,
  })
}
