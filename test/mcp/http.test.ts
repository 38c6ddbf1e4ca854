/**
 * The MCP server over Streamable HTTP (the `/mcp` row), driven by the SDK's
 * own client through the emulator's socket-free fetch: the same dispatch the
 * Node server runs, without a socket.
 */
import { readFileSync } from 'node:fs'
import { request } from 'node:http'
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client'
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type PresentationEmulator } from '../../src/index.js'
import { OPERATION_IDS } from '../../src/schemas/operations.js'
import { CONTROL_TOOLS, SESSION_TOOLS, SLIDE_TOOLS } from '../../src/mcp/tools.js'
import { callSequence, httpCaller, keysIn, mcpCaller } from './support.js'

const OPTIONS = { seed: 7, clock: 'manual', rateLimit: 0 } as const
const emulators: PresentationEmulator[] = []
const clients: Client[] = []

function emulator(options: Parameters<typeof createEmulator>[0] = {}): PresentationEmulator {
  const made = createEmulator({ ...OPTIONS, ...options })
  emulators.push(made)
  return made
}

async function connect(on: PresentationEmulator, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'mcp-test', version: '1.0.0' })
  const transport = new StreamableHTTPClientTransport(new URL('/mcp', on.emulator.baseUrl), { fetch: on.fetch, requestInit: { headers } })
  await client.connect(transport)
  clients.push(client)
  return client
}

afterEach(async () => {
  for (const client of clients.splice(0)) await client.close()
  for (const made of emulators.splice(0)) await made.close()
})

describe('the MCP server over HTTP', () => {
  it('lists a tool per /v1 operation, the control and slide tools, the resources and the prompt', async () => {
    const client = await connect(emulator())
    const { tools } = await client.listTools()
    const names = tools.map((tool) => tool.name)
    // The operation table is the list: a new operation cannot miss its tool.
    expect(names.filter((name) => (OPERATION_IDS as readonly string[]).includes(name))).toEqual(OPERATION_IDS)
    expect(names.sort()).toEqual([...OPERATION_IDS, ...SESSION_TOOLS, ...CONTROL_TOOLS, ...SLIDE_TOOLS].sort())
    const createSlide = tools.find((tool) => tool.name === 'createSlide')!
    expect(createSlide.description).toContain('POST /v1/projects/{slug}/slides')
    expect(createSlide.inputSchema.required).toEqual(['slug'])
    expect(Object.keys(createSlide.inputSchema.properties ?? {})).toEqual(['slug', 'body'])
    const { resources } = await client.listResources()
    expect(resources.map((resource) => resource.uri).sort()).toEqual([
      'presentation://guides/rendering',
      'presentation://reference/openapi.json',
    ])
    const { resourceTemplates } = await client.listResourceTemplates()
    expect(resourceTemplates.map((template) => template.uriTemplate).sort()).toEqual([
      'presentation://projects/{slug}/slides/guide',
      'presentation://projects/{slug}/slides/{slideId}/{file}',
    ])
    const { prompts } = await client.listPrompts()
    expect(prompts.map((prompt) => prompt.name)).toEqual(['write_slide'])
    // The guide names every tool the server lists.
    const guide = readFileSync(new URL('../../docs/guides/mcp.md', import.meta.url), 'utf8')
    expect(names.filter((name) => !guide.includes(`\`${name}\``))).toEqual([])
  })

  it('answers every /v1 tool as the API answers the same calls on an emulator with the same seed', async () => {
    const answers: unknown[] = []
    const viaMcp = await callSequence(mcpCaller(await connect(emulator()), answers))
    const second = emulator()
    const viaHttp = await callSequence(httpCaller(second.fetch, second.emulator.apiUrl, 'pres_test_alice'))
    expect(viaMcp).toEqual(viaHttp)
    expect(new Set(viaMcp.map((call) => call.tool))).toEqual(new Set(OPERATION_IDS))
    // Refusals among them, with their codes.
    expect(viaMcp.filter((call) => call.outcome.status !== 200).map((call) => [call.tool, call.outcome.status, call.outcome.code])).toEqual(
      [
        ['getProject', 404, 'NOT_FOUND'],
        ['updateSlide', 400, 'VALIDATION_ERROR'],
        ['getJobStatus', 404, 'NOT_FOUND'],
      ],
    )
    expect(answers.flatMap(keysIn)).toEqual([])
  })

  it('shows a 429 and a 402 set up through the control tools as tool errors', async () => {
    const client = await connect(emulator())
    const added = await client.callTool({
      name: 'emulator_add_fault',
      arguments: { operationId: 'listProjects', status: 429, retryAfter: 3 },
    })
    expect(added.isError).toBeUndefined()
    const limited = await client.callTool({ name: 'listProjects', arguments: {} })
    expect(limited.isError).toBe(true)
    expect(limited.structuredContent).toMatchObject({ status: 429, errorCode: 'RATE_LIMITED' })
    expect((await client.callTool({ name: 'listProjects', arguments: {} })).isError).toBeUndefined()
    await client.callTool({ name: 'emulator_set_credits', arguments: { teamId: 'team_alice', credits: 0 } })
    const broke = await client.callTool({ name: 'generateProject', arguments: { body: { prompt: 'A deck' } } })
    expect(broke.isError).toBe(true)
    expect(broke.structuredContent).toMatchObject({ status: 402, errorCode: 'INSUFFICIENT_CREDITS' })
  })

  it('refuses arguments that fail the schema with a tool error naming the field, and changes nothing', async () => {
    const client = await connect(emulator())
    const before = await client.callTool({ name: 'listProjects', arguments: {} })
    const bad = await client.callTool({ name: 'createProject', arguments: { body: { name: 42 } } })
    expect(bad.isError).toBe(true)
    expect(JSON.stringify(bad.content)).toContain('name')
    const unknownField = await client.callTool({ name: 'emulator_advance_clock', arguments: { ms: -5 } })
    expect(unknownField.isError).toBe(true)
    expect(JSON.stringify(unknownField.content)).toContain('ms')
    expect(await client.callTool({ name: 'listProjects', arguments: {} })).toEqual(before)
    const journal = await client.callTool({ name: 'emulator_journal', arguments: { operationId: 'createProject' } })
    expect((journal.structuredContent as { requests: unknown[] }).requests).toEqual([])
  })

  it('answers an unknown tool and an unknown resource with the protocol’s error', async () => {
    const client = await connect(emulator())
    await expect(client.callTool({ name: 'noSuchTool', arguments: {} })).rejects.toThrow(/noSuchTool not found/)
    await expect(client.readResource({ uri: 'presentation://nothing/here' })).rejects.toThrow(/not found/i)
  })

  it('keeps each session’s key its own, and shows no key in answers', async () => {
    const made = emulator()
    const first = await connect(made)
    const second = await connect(made)
    const switched = await first.callTool({ name: 'set_api_key', arguments: { apiKey: 'pres_test_bob' } })
    expect(keysIn(switched)).toEqual([])
    const bobs = await first.callTool({ name: 'listTeams', arguments: {} })
    const alices = await second.callTool({ name: 'listTeams', arguments: {} })
    expect(JSON.stringify(bobs.structuredContent)).toContain('team_bob')
    expect(JSON.stringify(alices.structuredContent)).not.toContain('team_bob')
    await first.callTool({ name: 'set_api_key', arguments: { apiKey: 'pres_test_nobody' } })
    const refused = await first.callTool({ name: 'listTeams', arguments: {} })
    expect(refused.structuredContent).toMatchObject({ status: 401 })
    expect(keysIn(refused)).toEqual([])
    const exported = await second.callTool({ name: 'emulator_export_state', arguments: { include: true } })
    expect(keysIn(exported)).toEqual([])
    const faults = await second.callTool({
      name: 'emulator_add_fault',
      arguments: { operationId: '*', status: 500, apiKey: 'pres_test_bob', times: 0 },
    })
    expect(faults.isError).toBeUndefined()
    expect(keysIn(await second.callTool({ name: 'emulator_list_faults', arguments: {} }))).toEqual([])
    // The tools that create keys answer with them: the caller asked for one.
    const account = await second.callTool({ name: 'emulator_create_account', arguments: { name: 'Agent' } })
    expect(new Set(keysIn(account)).size).toBe(1)
  })

  it('restores an exported snapshot', async () => {
    const client = await connect(emulator())
    const exported = await client.callTool({ name: 'emulator_export_state', arguments: { name: 'start' } })
    expect(exported.structuredContent).toMatchObject({ snapshot: 'start', counts: { projects: expect.any(Number), apiKeys: 4 } })
    await client.callTool({ name: 'createProject', arguments: { body: { name: 'Gone after the import' } } })
    const imported = await client.callTool({ name: 'emulator_import_state', arguments: { snapshot: 'start' } })
    expect(imported.isError).toBeUndefined()
    const list = await client.callTool({ name: 'listProjects', arguments: { limit: '100' } })
    expect(JSON.stringify(list.structuredContent)).not.toContain('Gone after the import')
  })

  it('serves /mcp from the Node server too, and its Host check refuses a foreign name', async () => {
    const made = emulator({ adminToken: 'sesame' })
    const running = await made.listen({ port: 0 })
    try {
      const client = new Client({ name: 'mcp-test', version: '1.0.0' })
      const headers = { authorization: 'Bearer sesame' }
      await client.connect(new StreamableHTTPClientTransport(new URL('/mcp', running.origin), { requestInit: { headers } }))
      clients.push(client)
      const reset = await client.callTool({ name: 'emulator_reset', arguments: {} })
      expect(reset.isError).toBeUndefined()
      const teams = await client.callTool({ name: 'listTeams', arguments: {} })
      expect(JSON.stringify(teams.structuredContent)).toContain('team_alice')
      // A DNS-rebinding page reaches the loopback server under its own name: refused before MCP runs.
      const status = await new Promise<number | undefined>((resolve, reject) => {
        const sent = request(
          {
            host: '127.0.0.1',
            port: running.port,
            path: '/mcp',
            method: 'POST',
            headers: { ...headers, host: 'evil.example', 'content-type': 'application/json' },
          },
          (answer) => {
            answer.resume()
            resolve(answer.statusCode)
          },
        )
        sent.on('error', reject)
        sent.end('{}')
      })
      expect(status).toBe(403)
    } finally {
      await running.close()
    }
  })

  it('refuses a request without the admin token when one is set, and a foreign page’s', async () => {
    const guarded = emulator({ adminToken: 'sesame' })
    await expect(connect(guarded)).rejects.toThrow(/Authentication required/)
    const client = await connect(guarded, { authorization: 'Bearer sesame' })
    expect((await client.callTool({ name: 'emulator_clock', arguments: {} })).isError).toBeUndefined()
    await expect(connect(emulator(), { origin: 'https://evil.example' })).rejects.toThrow(/Forbidden/)
  })

  it('refuses a control tool called in a session without the admin token, and changes nothing', async () => {
    const guarded = emulator({ adminToken: 'sesame' })
    const transport = new StreamableHTTPClientTransport(new URL('/mcp', guarded.emulator.baseUrl), {
      fetch: guarded.fetch,
      requestInit: { headers: { authorization: 'Bearer sesame' } },
    })
    const client = new Client({ name: 'mcp-test', version: '1.0.0' })
    await client.connect(transport)
    clients.push(client)
    await client.callTool({ name: 'emulator_set_credits', arguments: { teamId: 'team_alice', credits: 3 } })
    const call = (authorization?: string) =>
      guarded.fetch(new URL('/mcp', guarded.emulator.baseUrl), {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': transport.sessionId!,
          'mcp-protocol-version': '2025-06-18',
          ...(authorization === undefined ? {} : { authorization }),
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 99, method: 'tools/call', params: { name: 'emulator_reset', arguments: {} } }),
      })
    const refused = await call()
    expect(refused.status).toBe(401)
    expect(refused.headers.get('x-service-error-code')).toBe('UNAUTHORIZED')
    expect((await call('Bearer wrong')).status).toBe(401)
    // Not reset: the credits set above are still there.
    const state = await guarded.control.getState()
    expect((state as { teams: Array<{ id: string; credits: number }> }).teams.find((team) => team.id === 'team_alice')?.credits).toBe(3)
  })

  it('answers a body over its limit with 413 before MCP reads it', async () => {
    const made = emulator()
    const answer = await made.fetch(new URL('/mcp', made.emulator.baseUrl), {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { pad: 'x'.repeat(5 * 1024 * 1024) } }),
    })
    expect(answer.status).toBe(413)
  })

  it("reports the session's own calls through the client report tools, from a mark on", async () => {
    const client = await connect(emulator())
    const mark = (await client.callTool({ name: 'emulator_mark_client_report', arguments: {} })).structuredContent as { mark: string }
    expect(mark.mark).toMatch(/^mark_\d+$/)
    // A key that answered 401, used again: the client report's auth rule names it.
    await client.callTool({ name: 'set_api_key', arguments: { apiKey: 'pres_not_a_key' } })
    for (let i = 0; i < 2; i++) {
      const refused = await client.callTool({ name: 'listTeams', arguments: {} })
      expect(refused.structuredContent).toMatchObject({ status: 401 })
    }
    const report = await client.callTool({ name: 'emulator_client_report', arguments: { since: mark.mark } })
    expect(report.isError).toBeFalsy()
    const findings = (report.structuredContent as { findings: Array<{ rule: string }> }).findings
    expect(findings.map((finding) => finding.rule)).toContain('auth.key-refused')
    const unknown = await client.callTool({ name: 'emulator_client_report', arguments: { since: 'mark_999' } })
    expect(unknown.isError).toBe(true)
    expect(unknown.structuredContent).toMatchObject({ status: 404 })
  })

  it('answers slide_picture without a browser with a tool error naming how to provide one', async () => {
    const client = await connect(emulator({ chromiumPath: '/nonexistent/chromium' }))
    const slides = (await client.callTool({ name: 'listSlides', arguments: { slug: 'welcome-deck' } })).structuredContent as {
      slides: Array<{ id: string }>
    }
    const slideId = slides.slides[0]!.id
    const picture = await client.callTool({ name: 'slide_picture', arguments: { slug: 'welcome-deck', slideId } })
    expect(picture.isError).toBe(true)
    expect(picture.structuredContent).toMatchObject({ status: 503, errorCode: 'SLIDE_CHECKER_UNAVAILABLE' })
    expect(JSON.stringify(picture.content)).toMatch(/\/nonexistent\/chromium[\s\S]*CHROMIUM_PATH/)
    const tooWide = await client.callTool({ name: 'slide_picture', arguments: { slug: 'welcome-deck', slideId, width: 5000 } })
    expect(tooWide.isError).toBe(true)
    expect(JSON.stringify(tooWide.content)).toContain('width')
  })
})
