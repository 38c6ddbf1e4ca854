/**
 * The five defects a new user planted in a proxy in front of the emulator
 * (issue 36): `?limit=N` answered with N+1 items, a rename refusing names
 * over 100 characters, a 402 answered as 403, a 404 without the error body
 * or `X-Service-Error-Code`, and `showBrandLogo` dropped from the config.
 * One server holding all five at once: the reports must name each once, with
 * its count, however many times the run met it.
 */
import type { EmulatorRequest, EmulatorResponse } from '../../src/core/exchange.js'
import type { PresentationEmulator } from '../../src/index.js'
import { createHookedEmulator } from '../support/hooked-emulator.js'
import type { TestHooks } from '../support/test-hooks.js'

const decoder = new TextDecoder()
const encoder = new TextEncoder()

function bodyOf(request: EmulatorRequest): Record<string, unknown> | undefined {
  if (request.body === null) return undefined
  try {
    return JSON.parse(decoder.decode(request.body))
  } catch {
    return undefined
  }
}

function jsonOf(response: EmulatorResponse): Record<string, unknown> | undefined {
  try {
    return response.body === null ? undefined : JSON.parse(response.body)
  } catch {
    return undefined
  }
}

/** What each defect is, as a report must name it: a pattern its distinct problem's text matches. */
export const FIVE_DEFECTS = [
  { name: 'limit=N answers N+1 items', problem: /at most `limit` items/ },
  { name: 'a rename refuses names over 100 characters', problem: /renameProject/ },
  { name: 'a 402 answered as 403', problem: /answers 402/ },
  { name: 'a 404 without the error body or X-Service-Error-Code', problem: /error body/ },
  { name: 'showBrandLogo dropped from the config', problem: /showBrandLogo/ },
] as const

/** The five defects as test hooks (`createHookedEmulator`). */
export const fiveDefectHooks: TestHooks = {
  transformRequest: ({ request, operationId }) => {
    if (operationId === 'listProjects' || operationId === 'listTemplates') {
      // limit=N is read as N+1.
      const query = request.query.replace(/(^|&)limit=(\d+)/, (all, lead: string, n: string) =>
        Number(n) >= 1 && Number(n) < 100 ? `${lead}limit=${Number(n) + 1}` : all,
      )
      return { ...request, query }
    }
    if (operationId === 'updateProjectConfig') {
      const body = bodyOf(request)
      const config = body?.config as Record<string, unknown> | undefined
      if (config !== undefined && typeof config === 'object' && config !== null && 'showBrandLogo' in config) {
        const { showBrandLogo: _dropped, ...rest } = config
        return { ...request, body: encoder.encode(JSON.stringify({ ...body, config: rest })) }
      }
    }
    return request
  },
  transformResponse: ({ request, operationId }, response) => {
    if (operationId === 'renameProject' && response.status === 200) {
      const name = bodyOf(request)?.name
      if (typeof name === 'string' && name.length > 100)
        return {
          ...response,
          status: 400,
          headers: { ...response.headers, 'x-service-error-code': 'VALIDATION_ERROR' },
          body: JSON.stringify({ error: 'name: at most 100 characters' }),
        }
    }
    if (response.status === 402) return { ...response, status: 403 }
    if (response.status === 404) {
      const { 'x-service-error-code': _code, ...headers } = response.headers
      return { ...response, headers, body: '' }
    }
    if ((operationId === 'getProjectConfig' || operationId === 'updateProjectConfig') && response.status === 200) {
      const json = jsonOf(response)
      const config = json?.config as Record<string, unknown> | undefined
      if (config !== undefined && 'showBrandLogo' in config) {
        const { showBrandLogo: _dropped, ...rest } = config
        return { ...response, body: JSON.stringify({ ...json, config: rest }) }
      }
    }
    return response
  },
}

/** The emulator with the five defects (manual clock, the spec's rate limit). */
export function fiveDefectServer(): PresentationEmulator {
  return createHookedEmulator({ clock: 'manual', rateLimit: 50, onError: () => undefined }, fiveDefectHooks)
}

/** The keys a deployment's person would pass against it: the emulator's fixture keys. */
export const FIVE_DEFECT_KEYS = {
  main: 'pres_test_alice_acme',
  other: 'pres_test_bob',
  revoked: 'pres_test_revoked',
  noCredits: 'pres_test_bob',
}
