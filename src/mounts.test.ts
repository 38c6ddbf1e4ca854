import { describe, expect, it } from 'vitest'
import { MAX_BODY_BYTES, MAX_CONTROL_BODY_BYTES, MAX_NO_BODY_BYTES, MAX_STATE_BODY_BYTES } from './core/exchange.js'
import { type Mount, MountTable, NOT_FOUND_MOUNT } from './mounts.js'

/** A row a composition root might add: only GET, at one exact path under the control plane's. */
const added: Mount<unknown> = {
  name: 'an added page',
  path: '/_emulator/page',
  match: 'exact',
  methods: ['GET', 'HEAD'],
  bodyLimit: MAX_NO_BODY_BYTES,
  browsers: 'own-origins',
  open: () => () => ({ status: 200, headers: {}, body: 'page' }),
}

describe('the core mount table', () => {
  it('serves the API, the control plane and the OpenAPI document alone, and unknown paths from the 404 row', () => {
    const table = new MountTable()
    const served = (path: string) => table.mountFor('GET', path).name
    expect(table.rows.map((row) => row.name)).toEqual(['the API', 'the control plane', 'the OpenAPI document'])
    expect(served('/v1')).toBe('the API')
    expect(served('/v1/projects')).toBe('the API')
    expect(served('/v10')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/_emulator')).toBe('the control plane')
    expect(served('/_emulator/state')).toBe('the control plane')
    // Without the web room, its paths are nobody's.
    expect(served('/editor/welcome-deck')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/openapi.json')).toBe('the OpenAPI document')
    expect(served('/openapi.json/x')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/')).toBe(NOT_FOUND_MOUNT.name)
  })

  it('puts added rows after the API and before the control plane, each for its methods only', () => {
    const table = new MountTable([added])
    expect(table.rows.map((row) => row.name)).toEqual(['the API', 'an added page', 'the control plane', 'the OpenAPI document'])
    expect(table.mountFor('GET', '/_emulator/page').name).toBe('an added page')
    expect(table.mountFor('HEAD', '/_emulator/page').name).toBe('an added page')
    // Another method goes on to the next row that matches the path.
    expect(table.mountFor('POST', '/_emulator/page').name).toBe('the control plane')
    expect(table.mountFor('GET', '/_emulator/page/x').name).toBe('the control plane')
  })

  it('gives each request the body limit of its row, per route on the control plane', () => {
    const table = new MountTable()
    expect(table.bodyLimitFor('POST', '/v1/projects')).toBe(MAX_BODY_BYTES)
    expect(table.bodyLimitFor('PUT', '/_emulator/state')).toBe(MAX_STATE_BODY_BYTES)
    expect(table.bodyLimitFor('POST', '/_emulator/faults')).toBe(MAX_CONTROL_BODY_BYTES)
    expect(table.bodyLimitFor('POST', '/_emulator/reset')).toBe(MAX_NO_BODY_BYTES)
    expect(table.bodyLimitFor('POST', '/_emulator/nothing-here')).toBe(MAX_NO_BODY_BYTES)
    expect(table.bodyLimitFor('POST', '/elsewhere')).toBe(MAX_NO_BODY_BYTES)
  })

  it('names the namespaces a base URL at an origin’s root leaves to the emulator', () => {
    const table = new MountTable()
    expect(table.ownPrefixes).toEqual(['/_emulator', '/openapi.json'])
    expect(table.isOwnPath('/_emulator/state')).toBe(true)
    expect(table.isOwnPath('/projects')).toBe(false)
    expect(table.isOwnPath('/editor')).toBe(false)
  })
})
