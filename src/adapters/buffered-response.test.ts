import { describe, expect, it } from 'vitest'
import { bufferedResponse } from './buffered-response.js'

const make = (text: string | null = '{"a":"é"}') =>
  bufferedResponse(text, { status: 201, headers: { 'content-type': 'application/json', 'x-one': '1' } })

/** What a plain Response with the same body and init answers, read the same way. */
const plain = (text: string | null = '{"a":"é"}') =>
  new Response(text, { status: 201, headers: { 'content-type': 'application/json', 'x-one': '1' } })

describe('BufferedResponse', () => {
  it('is a Response with the real status and headers', () => {
    const response = make()
    expect(response).toBeInstanceOf(Response)
    expect([response.status, response.ok, response.headers.get('x-one')]).toEqual([201, true, '1'])
  })

  it('reads its body as a plain Response does, in every form', async () => {
    expect(await make().text()).toBe(await plain().text())
    expect(await make().json()).toEqual(await plain().json())
    expect(new Uint8Array(await make().arrayBuffer())).toEqual(new Uint8Array(await plain().arrayBuffer()))
    expect(await make().bytes()).toEqual(await plain().bytes())
    const [a, b] = [await make().blob(), await plain().blob()]
    expect([a.type, await a.text()]).toEqual([b.type, await b.text()])
    expect(await new Response(make().body).text()).toBe('{"a":"é"}')
    expect(make(null).body).toBeNull()
    expect(await make(null).text()).toBe('')
  })

  it('reads once, whichever way, as a plain Response does', async () => {
    for (const response of [make(), plain()]) {
      expect(response.bodyUsed).toBe(false)
      await response.text()
      expect(response.bodyUsed).toBe(true)
      await expect(response.json()).rejects.toThrow(TypeError)
      expect(() => response.clone()).toThrow(TypeError)
    }
    const streamed = make()
    await new Response(streamed.body).text()
    expect(streamed.bodyUsed).toBe(true)
    await expect(streamed.text()).rejects.toThrow(TypeError)
  })

  it('clones into two independent bodies', async () => {
    const response = make()
    const copy = response.clone()
    expect(await copy.json()).toEqual({ a: 'é' })
    expect(await response.text()).toBe('{"a":"é"}')
    expect(copy.headers.get('x-one')).toBe('1')
  })
})
