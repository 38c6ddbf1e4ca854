import { describe, expect, it } from 'vitest'
import { MAX_NO_BODY_BYTES } from '../src/core/exchange.js'
import { MountTable, NOT_FOUND_MOUNT } from '../src/mounts.js'
import { WEB_MOUNTS } from './mounts.js'

/** The table of an emulator the composition root built: the core's rows and the web room's. */
const table = new MountTable(WEB_MOUNTS)

describe('the mount table with the web room', () => {
  it('serves each path from the first row that matches it, and unknown paths from the 404 row', () => {
    const served = (path: string, method = 'GET') => table.mountFor(method, path).name
    expect(served('/v1/projects')).toBe('the API')
    expect(served('/_emulator')).toBe('the dashboard')
    expect(served('/_emulator', 'HEAD')).toBe('the dashboard')
    expect(served('/_emulator/dashboard/events')).toBe('the dashboard')
    // The dashboard's paths with another method are the control plane's (which has no route there: 404).
    expect(served('/_emulator', 'POST')).toBe('the control plane')
    expect(served('/_emulator/state')).toBe('the control plane')
    expect(served('/_emulator/assets/pages.css')).toBe("the pages' asset pages.css")
    expect(served('/_emulator/assets/render/renderer.html')).toBe("the slide renderer's renderer.html")
    // An unknown asset is the control plane's (admin token, then 404), as a known one is not.
    expect(served('/_emulator/assets/nope.js')).toBe('the control plane')
    expect(served('/editor/welcome-deck')).toBe('the editor pages')
    expect(served('/editor')).toBe(NOT_FOUND_MOUNT.name)
    expect(served('/sites/acme.sites.example/')).toBe('the published sites')
    expect(served('/openapi.json')).toBe('the OpenAPI document')
    expect(served('/')).toBe(NOT_FOUND_MOUNT.name)
  })

  it('reads no body for a page', () => {
    expect(table.bodyLimitFor('POST', '/editor/x')).toBe(MAX_NO_BODY_BYTES)
    expect(table.bodyLimitFor('GET', '/_emulator')).toBe(MAX_NO_BODY_BYTES)
  })

  it('names the namespaces a base URL at an origin’s root leaves to the emulator', () => {
    expect(table.ownPrefixes).toEqual(['/_emulator', '/editor', '/sites', '/openapi.json'])
    expect(table.isOwnPath('/editor')).toBe(true)
    expect(table.isOwnPath('/_emulator/assets/pages.css')).toBe(true)
    expect(table.isOwnPath('/projects')).toBe(false)
    expect(table.isOwnPath('/editorial')).toBe(false)
  })

  it('guards every row but the API and the OpenAPI document against foreign pages', () => {
    const open = table.rows.filter((mount) => mount.browsers === 'open').map((mount) => mount.name)
    expect(open).toEqual(['the API', 'the OpenAPI document'])
  })
})
