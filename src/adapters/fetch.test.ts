import { describe, expect, it } from 'vitest'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import { MountTable } from '../mounts.js'
import { createFetch } from './fetch.js'

/** A fetch whose core echoes the request it received, so a test sees what each way of calling produced. */
function echoFetch() {
  const seen: EmulatorRequest[] = []
  const handle = async (request: EmulatorRequest): Promise<EmulatorResponse> => {
    seen.push(request)
    return { status: 200, headers: { 'content-type': 'application/json' }, body: '{}' }
  }
  return { fetch: createFetch(handle, () => '/v1', new MountTable()), seen }
}

const text = (bytes: Uint8Array | null) => (bytes === null ? null : new TextDecoder().decode(bytes))

describe('createFetch', () => {
  it('gives the core the same request for a URL with init as for the equivalent Request', async () => {
    const { fetch, seen } = echoFetch()
    const init = {
      method: 'put',
      headers: { Authorization: 'Bearer pres_x', 'X-Twice': 'a' },
      body: '{"name":"é"}',
    }
    await fetch('http://127.0.0.1:4010/v1/projects/a%20b/config?x=1&y=2', init)
    await fetch(new Request('http://127.0.0.1:4010/v1/projects/a%20b/config?x=1&y=2', init))
    // A Request always has a signal, so the core is told how to ask whether its client went away.
    const [direct, viaRequest] = seen.map(({ clientGone: _, ...r }) => ({ ...r, body: text(r.body) }))
    expect(direct).toEqual(viaRequest)
    expect(direct).toMatchObject({
      method: 'PUT',
      path: '/v1/projects/a%20b/config',
      query: 'x=1&y=2',
      body: '{"name":"é"}',
      headers: { authorization: 'Bearer pres_x', 'x-twice': 'a', 'content-type': 'text/plain;charset=UTF-8' },
    })
  })

  it('reads Headers, header pairs and byte bodies, joining a repeated header as Headers does', async () => {
    const { fetch, seen } = echoFetch()
    await fetch(new URL('http://127.0.0.1:4010/v1/teams'), { headers: new Headers({ 'X-A': '1' }) })
    await fetch('http://127.0.0.1:4010/v1/teams', {
      method: 'POST',
      headers: [
        ['x-a', '1'],
        ['X-A', '2'],
      ],
      body: new TextEncoder().encode('{}'),
    })
    await fetch('http://127.0.0.1:4010/v1/teams', { method: 'POST', body: new URLSearchParams({ a: '1' }) })
    expect(seen[0]!.headers).toEqual({ 'x-a': '1' })
    expect(seen[1]!.headers).toEqual({ 'x-a': '1, 2' })
    expect(text(seen[1]!.body)).toBe('{}')
    expect(text(seen[2]!.body)).toBe('a=1')
    expect(seen[2]!.headers['content-type']).toBe('application/x-www-form-urlencoded;charset=UTF-8')
  })

  it('fails exactly as fetch does on what fetch rejects', async () => {
    const { fetch, seen } = echoFetch()
    await expect(fetch('/v1/teams')).rejects.toThrow(TypeError)
    await expect(fetch('http://127.0.0.1:4010/v1/teams', { body: 'x' })).rejects.toThrow(TypeError)
    await expect(fetch('http://127.0.0.1:4010/v1/teams', { headers: { 'bad header': 'x' } })).rejects.toThrow(TypeError)
    await expect(fetch('http://127.0.0.1:4010/v1/teams', { headers: { a: 'x\ny' } })).rejects.toThrow(TypeError)
    await expect(fetch('http://127.0.0.1:4010/v1/teams', { method: 'TRACE' })).rejects.toThrow(TypeError)
    expect(seen).toEqual([])
  })

  it('marks a body over the limit instead of passing it on', async () => {
    const { fetch, seen } = echoFetch()
    await fetch('http://127.0.0.1:4010/v1/projects', { method: 'POST', body: 'x'.repeat(1024 * 1024 + 1) })
    expect(seen[0]).toMatchObject({ body: null, bodyTooLarge: true })
  })
})
