/**
 * `presentation-emulator mcp` over stdio, as an agent host starts it: the
 * built bin driven by the SDK's own client (process tier: it spawns the
 * CLI). What is listed with each set of flags, a slide written, checked and
 * fixed through the tools, the files checked without storing them, and
 * stdout holding protocol messages alone while the banner and logs go to
 * stderr, with no key in either.
 */
import { spawn } from 'node:child_process'
import { Client } from '@modelcontextprotocol/client'
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio'
import { afterEach, beforeAll, describe, expect, it } from 'vitest'
import { CONTROL_TOOLS, SESSION_TOOLS, SLIDE_TOOLS } from '../../src/mcp/tools.js'
import { OPERATION_IDS } from '../../src/schemas/operations.js'
import { BIN, ensureBuilt, PATIENCE_MS } from '../support/cli.js'
import { createEmulator } from '../../src/index.js'
import { BROKEN_AT_RUNTIME_TSX, callSequence, httpCaller, keysIn, mcpCaller, VALID_TSX } from './support.js'

const open: Array<{ client: Client; stderr: string[] }> = []

async function start(args: string[] = [], env: Record<string, string> = {}): Promise<{ client: Client; stderr: string[] }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [BIN, 'mcp', ...args],
    env: { PATH: process.env.PATH ?? '', ...env },
    stderr: 'pipe',
  })
  const stderr: string[] = []
  transport.stderr?.on('data', (chunk: Buffer) => stderr.push(chunk.toString('utf8')))
  const client = new Client({ name: 'mcp-stdio-test', version: '1.0.0' })
  await client.connect(transport)
  const started = { client, stderr }
  open.push(started)
  return started
}

const names = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name).sort()

beforeAll(ensureBuilt, 600_000)
afterEach(async () => {
  for (const { client } of open.splice(0)) await client.close()
})

describe('presentation-emulator mcp (stdio)', () => {
  it(
    'lists every tool by default, fewer with --tools, and only /v1 tools and file checks for --base-url without a control URL',
    async () => {
      const all = await start()
      expect(await names(all.client)).toEqual([...OPERATION_IDS, ...SESSION_TOOLS, ...CONTROL_TOOLS, ...SLIDE_TOOLS].sort())
      expect((await all.client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['write_slide'])
      const api = await start(['--tools', 'api'])
      expect(await names(api.client)).toEqual([...OPERATION_IDS, ...SESSION_TOOLS].sort())
      const remote = await start(['--base-url', 'http://127.0.0.1:9/v1'])
      expect(await names(remote.client)).toEqual([...OPERATION_IDS, ...SESSION_TOOLS, 'check_slide_files'].sort())
    },
    PATIENCE_MS,
  )

  it(
    'answers every /v1 tool as the API of an emulator with the same seed and clock answers the same calls',
    async () => {
      const { client } = await start(['--seed', '7', '--clock', 'manual'])
      const answers: unknown[] = []
      const viaMcp = await callSequence(mcpCaller(client, answers))
      const second = createEmulator({ seed: 7, clock: 'manual' })
      try {
        const viaHttp = await callSequence(httpCaller(second.fetch, second.emulator.apiUrl, 'pres_test_alice'))
        expect(viaMcp).toEqual(viaHttp)
      } finally {
        await second.close()
      }
      expect(new Set(viaMcp.map((call) => call.tool))).toEqual(new Set(OPERATION_IDS))
      expect(answers.flatMap(keysIn)).toEqual([])
    },
    PATIENCE_MS,
  )

  it(
    'writes a slide, checks it, fixes it and checks it again; checks files given in the call; no key in any answer or log',
    async () => {
      const { client, stderr } = await start([], { PRESENTATION_API_KEY: 'pres_test_alice' })
      const answers: unknown[] = []
      const call = async (name: string, args: Record<string, unknown>) => {
        const result = await client.callTool({ name, arguments: args })
        answers.push(result)
        return result
      }
      const created = await call('createSlide', {
        slug: 'welcome-deck',
        body: { name: 'Agent slide', files: { 'slide.tsx': BROKEN_AT_RUNTIME_TSX } },
      })
      expect(created.isError).toBeUndefined()
      const { slideId } = created.structuredContent as { slideId: string }
      const first = await call('check_slides', { slug: 'welcome-deck', slideIds: [slideId] })
      expect(first.structuredContent).toMatchObject({ failed: 1, slides: [{ slideId, status: 'error' }] })
      await call('updateSlide', {
        slug: 'welcome-deck',
        slideId,
        body: { files: { 'slide.tsx': VALID_TSX, 'slide.content.json': '{"title":"Fixed"}' } },
      })
      const second = await call('check_slides', { slug: 'welcome-deck', slideIds: [slideId] })
      expect(second.structuredContent).toMatchObject({ rendered: 1, failed: 0, slides: [{ slideId, status: 'rendered' }] })
      const file = await client.readResource({ uri: `presentation://projects/welcome-deck/slides/${slideId}/slide.tsx` })
      expect(file.contents[0]).toMatchObject({ text: VALID_TSX })
      await expect(client.readResource({ uri: 'presentation://projects/not-a-project/slides/x/slide.tsx' })).rejects.toThrow(/404/)
      const files = await call('check_slide_files', {
        slides: [
          { slideId: 'good', files: { 'slide.tsx': VALID_TSX, 'slide.content.json': '{"title":"Hi"}' } },
          { slideId: 'bad', files: { 'slide.tsx': BROKEN_AT_RUNTIME_TSX } },
        ],
      })
      expect(files.structuredContent).toMatchObject({
        rendered: 1,
        failed: 1,
        slides: [
          { slideId: 'good', status: 'rendered' },
          { slideId: 'bad', status: 'error' },
        ],
      })
      await call('set_api_key', { apiKey: 'pres_test_bob' })
      await call('getProject', { slug: 'welcome-deck' })
      expect(answers.flatMap(keysIn)).toEqual([])
      expect(keysIn(stderr.join(''))).toEqual([])
      expect(stderr.join('')).toMatch(/serving MCP over stdio/)
    },
    PATIENCE_MS,
  )

  it(
    'refuses a bad command line with exit code 2 and says why',
    async () => {
      const run = (args: string[]) =>
        new Promise<{ code: number | null; stderr: string }>((resolve) => {
          const child = spawn(process.execPath, [BIN, 'mcp', ...args], {
            stdio: ['ignore', 'ignore', 'pipe'],
            env: { PATH: process.env.PATH ?? '' },
          })
          let stderr = ''
          child.stderr.on('data', (chunk: Buffer) => {
            stderr += chunk.toString('utf8')
          })
          child.once('exit', (code) => resolve({ code, stderr }))
        })
      const tools = await run(['--tools', 'api,pictures'])
      expect(tools.code).toBe(2)
      expect(tools.stderr).toMatch(/--tools.*must name some of api, control, slides/)
      const control = await run(['--control-url', 'http://127.0.0.1:4010'])
      expect(control.code).toBe(2)
      expect(control.stderr).toMatch(/--control-url needs --base-url/)
    },
    PATIENCE_MS,
  )

  it(
    'writes protocol messages alone to stdout: the banner and logs go to stderr',
    async () => {
      const child = spawn(process.execPath, [BIN, 'mcp'], { stdio: ['pipe', 'pipe', 'pipe'], env: { PATH: process.env.PATH ?? '' } })
      let stdout = ''
      let stderr = ''
      let answered: () => void = () => {}
      const allAnswered = new Promise<void>((resolve) => {
        answered = resolve
      })
      child.stdout.on('data', (chunk: Buffer) => {
        stdout += chunk.toString('utf8')
        if (stdout.split('\n').filter((line) => line !== '').length >= 3) answered()
      })
      child.stderr.on('data', (chunk: Buffer) => {
        stderr += chunk.toString('utf8')
      })
      const messages = [
        {
          jsonrpc: '2.0',
          id: 1,
          method: 'initialize',
          params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'raw', version: '1' } },
        },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'listProjects', arguments: {} } },
        { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'getProject', arguments: { slug: 'missing' } } },
      ]
      child.stdin.write(`${messages.map((message) => JSON.stringify(message)).join('\n')}\n`)
      // stdin ends (the host going away) once every request is answered: then the server exits 0.
      await allAnswered
      child.stdin.end()
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve))
      expect(code).toBe(0)
      const lines = stdout.split('\n').filter((line) => line !== '')
      expect(lines.map((line) => (JSON.parse(line) as { id: number }).id).sort()).toEqual([1, 2, 3])
      for (const line of lines) expect(JSON.parse(line)).toMatchObject({ jsonrpc: '2.0' })
      expect(stderr).toMatch(/presentation-emulator mcp: serving MCP over stdio/)
      expect(stderr).toMatch(/listProjects: 200/)
      expect(stderr).toMatch(/getProject: 404/)
      expect(keysIn(stderr)).toEqual([])
    },
    PATIENCE_MS,
  )
})
