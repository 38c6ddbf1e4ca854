import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES, MAX_CONTROL_BODY_BYTES, MAX_NO_BODY_BYTES, MAX_STATE_BODY_BYTES } from './core/exchange.js'
import { bodyLimitFor, isOwnPath, mountFor, MOUNTS, NOT_FOUND_MOUNT, OWN_PREFIXES } from './mounts.js'

describe('the mount table', () => {
  it('serves each path from the first row that matches it, and unknown paths from the 404 row', () => {
    const served = (path: string) => mountFor(path).name
    expect(served('/v1')).toBe('the API')
    expect(served('/v1/projects')).toBe('the API')
    expect(served('/v10')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/_emulator')).toBe('the control plane and the dashboard')
    expect(served('/_emulator/state')).toBe('the control plane and the dashboard')
    expect(served('/_emulator/assets/pages.css')).toBe("the pages' asset pages.css")
    // An unknown asset is the control plane's (admin token, then 404), as a known one is not.
    expect(served('/_emulator/assets/nope.js')).toBe('the control plane and the dashboard')
    expect(served('/editor/welcome-deck')).toBe('the editor pages')
    expect(served('/editor')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/sites/acme.sites.example/')).toBe('the published sites')
    expect(served('/openapi.json')).toBe('the OpenAPI document')
    expect(served('/openapi.json/x')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/')).toBe(NOT_FOUND_MOUNT.name)
  })

  it('gives each request the body limit of its row, per route on the control plane', () => {
    expect(bodyLimitFor('POST', '/v1/projects')).toBe(MAX_BODY_BYTES)
    expect(bodyLimitFor('PUT', '/_emulator/state')).toBe(MAX_STATE_BODY_BYTES)
    expect(bodyLimitFor('POST', '/_emulator/faults')).toBe(MAX_CONTROL_BODY_BYTES)
    expect(bodyLimitFor('POST', '/_emulator/reset')).toBe(MAX_NO_BODY_BYTES)
    expect(bodyLimitFor('POST', '/_emulator/nothing-here')).toBe(MAX_NO_BODY_BYTES)
    expect(bodyLimitFor('POST', '/editor/x')).toBe(MAX_NO_BODY_BYTES)
    expect(bodyLimitFor('POST', '/elsewhere')).toBe(MAX_NO_BODY_BYTES)
  })

  it('names the namespaces a base URL at an origin’s root leaves to the emulator', () => {
    expect(OWN_PREFIXES).toEqual(['/_emulator', '/editor', '/sites', '/openapi.json'])
    expect(isOwnPath('/editor')).toBe(true)
    expect(isOwnPath('/_emulator/assets/pages.css')).toBe(true)
    expect(isOwnPath('/projects')).toBe(false)
    expect(isOwnPath('/editorial')).toBe(false)
  })

  it('guards every row but the API and the OpenAPI document against foreign pages', () => {
    const open = MOUNTS.filter((mount) => mount.browsers === 'open').map((mount) => mount.name)
    expect(open).toEqual(['the API', 'the OpenAPI document'])
  })
})
