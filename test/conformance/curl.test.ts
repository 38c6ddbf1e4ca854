/**
 * Reproductions run as the key that made the request: a variable per key
 * role, a malformed header shown as sent or as the shell expansion that makes
 * it from a key, and the report says which key it was.
 */
import { execFileSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { curlCommand, findingText, runConformance, summaryText, type Finding } from '../../conformance/index.js'
import { appended, derivedCredential, keyCredential, lastCharacterReplaced, literalCredential } from '../../conformance/curl.js'
import { createEmulator } from '../../src/index.js'
import { DEFECTS, runAgainstDefect } from './variants.js'

const BASE = 'http://127.0.0.1:4010/v1'
const request = {
  method: 'GET',
  url: `${BASE}/teams`,
  headers: { authorization: 'Bearer pres_secret_key', accept: 'application/json' },
  body: undefined,
}

/** The Authorization header a curl command sends, as sh expands it with `env`. */
function sentHeader(curl: string, env: Record<string, string>): string {
  const word = /-H ("Authorization: (?:[^"\\]|\\.)*"|'Authorization: [^']*')/.exec(curl)?.[1]
  if (word === undefined) throw new Error(`no Authorization header in ${curl}`)
  return execFileSync('sh', ['-c', `printf %s ${word}`], { env: { PATH: process.env.PATH, ...env }, encoding: 'utf8' })
}

describe('curlCommand', () => {
  it('reads each key role from its own variable, never writing the key', () => {
    const roles = [
      ['main', 'PRESENTATION_API_KEY'],
      ['otherTeam', 'PRESENTATION_OTHER_TEAM_KEY'],
      ['noCredits', 'PRESENTATION_NO_CREDITS_KEY'],
      ['revoked', 'PRESENTATION_REVOKED_KEY'],
    ] as const
    for (const [role, variable] of roles) {
      const curl = curlCommand(request, keyCredential(role))
      expect(curl).toBe(`curl -i -X GET '${BASE}/teams' -H "Authorization: Bearer $${variable}"`)
      expect(sentHeader(curl, { [variable]: 'pres_k' })).toBe('Authorization: Bearer pres_k')
    }
    expect(keyCredential('otherTeam').role).toBe('other-team key (--other-team-key)')
    expect(keyCredential('otherTeam', undefined, true).role).toBe('other-team key (made by the kit through the control plane)')
  })

  it('makes a malformed key from the variable, or shows a made-up value as sent', () => {
    const changed = curlCommand(request, derivedCredential('main', 'last character changed', lastCharacterReplaced('y')))
    expect(changed).not.toContain('pres_secret')
    expect(sentHeader(changed, { PRESENTATION_API_KEY: 'pres_secret_key' })).toBe(
      `${'Authorization: Bearer pres_secret_key'.slice(0, -1)}y`,
    )
    const longer = curlCommand(request, derivedCredential('otherTeam', 'appended', appended('a$b"c')))
    expect(sentHeader(longer, { PRESENTATION_OTHER_TEAM_KEY: 'live_k' })).toBe('Authorization: Bearer live_ka$b"c')
    const basic = curlCommand({ ...request, headers: { authorization: 'Basic Y29u' } }, literalCredential('Basic Y29u', 'Basic'))
    expect(sentHeader(basic, {})).toBe('Authorization: Basic Y29u')
    expect(curlCommand({ ...request, headers: {} }, { role: 'no key' })).toBe(`curl -i -X GET '${BASE}/teams'`)
  })
})

/** The MUST findings of one scenario against a broken emulator reached with a control plane. */
async function findings(defectName: string, fetchWrap?: (f: typeof fetch) => typeof fetch): Promise<Finding[]> {
  const defect = DEFECTS.find((d) => d.name === defectName)!
  const report = await runAgainstDefect(defect, {}, fetchWrap)
  return report.scenarios.find((s) => s.id === defect.scenario)!.failures.filter((f) => f.exchange !== undefined)
}

describe('a report’s reproductions', () => {
  it('run as the other-team key when that key made the request, and say so', async () => {
    const found = await findings('403 for another team’s project')
    const other = found.filter((f) => f.exchange!.response.status === 403)
    expect(other.length).toBeGreaterThan(0)
    for (const f of other) {
      expect(f.curl).toContain('-H "Authorization: Bearer $PRESENTATION_OTHER_TEAM_KEY"')
      expect(f.curl).not.toContain('PRESENTATION_API_KEY')
      // No --other-team-key was given: the control plane made it.
      // Named by its id and first characters (issue 36), so `--write-keys` finds it.
      expect(f.exchange!.request.key).toMatch(/^other-team key \(made by the kit through the control plane\): key_\w+ \(pres_\w{0,3}…\)$/)
      expect(findingText(f)).toContain('  key:      other-team key (made by the kit through the control plane): key_')
    }
  })

  it('run as the revoked key when it was accepted', async () => {
    const found = await findings('revoked keys accepted')
    expect(found.length).toBeGreaterThan(0)
    for (const f of found) {
      expect(f.curl).toContain('$PRESENTATION_REVOKED_KEY')
      expect(f.exchange!.request.key).toMatch(/^revoked key \(made by the kit through the control plane\): key_\w+ \(pres_\w{0,3}…\)$/)
    }
  })

  it('rebuild a malformed key from the main key’s variable, and the summary names every variable used', async () => {
    // A server that compares keys by all but their last character, and ignores what is appended.
    const emulator = createEmulator({ clock: 'manual', rateLimit: 0 })
    const key = 'pres_test_alice'
    const sloppy: typeof fetch = async (input, init) => {
      const headers = new Headers(init?.headers)
      const token = /^Bearer (\S+)$/.exec(headers.get('authorization') ?? '')?.[1]
      if (token !== undefined && token !== key && token.startsWith(key.slice(0, -1))) headers.set('authorization', `Bearer ${key}`)
      return emulator.fetch(input, { ...init, headers })
    }
    const report = await runConformance({ fetch: sloppy, baseUrl: BASE, apiKey: key, grep: '^auth\\.malformed-key$', seed: 4 })
    const result = report.scenarios[0]!
    expect(result.outcome).toBe('fail')
    const sent = result.failures.filter((f) => f.exchange !== undefined && f.exchange.response.status === 200)
    expect(sent.length).toBeGreaterThanOrEqual(2)
    for (const f of sent) {
      expect(f.curl).not.toContain('pres_test_alic')
      expect(f.exchange!.request.key).toMatch(/\(made from the main key \(--api-key\)\)$/)
    }
    // Each curl, with the variable set to the key, sends exactly the header the kit sent.
    const headers = sent.map((f) => sentHeader(f.curl!, { PRESENTATION_API_KEY: key }))
    expect(headers).toContain(`Authorization: Bearer ${key.slice(0, -1)}x`)
    expect(headers.some((h) => h.startsWith(`Authorization: Bearer ${key}`) && h.length > `Authorization: Bearer ${key}`.length)).toBe(true)
    expect(summaryText(report)).toContain('Reproductions read the keys from the environment: $PRESENTATION_API_KEY, the main key.')
  })
})
