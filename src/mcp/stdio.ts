/**
 * `presentation-emulator mcp`: the MCP server over stdio, for agent hosts
 * that start their servers as child processes. By default a fresh emulator
 * in this process (never listening); with `--base-url` a running one (its
 * control plane too with `--control-url`).
 *
 * stdout carries the protocol's messages and nothing else: the banner and
 * every log line go to stderr, and so does anything that calls
 * `console.log` in this process.
 */
import { StdioServerTransport } from '@modelcontextprotocol/server/stdio'
import { createControlClient } from '../client/control.js'
import { checkDeck, type DeckSlide } from '../model/deck-check.js'
import { DEFAULT_MCP_API_KEY } from './defaults.js'
import { createMcpServer, type McpBackend } from './server.js'
import type { ToolGroup } from './tools.js'

export interface McpStdioOptions {
  /** A running emulator's API base URL (ending in `/v1`); absent, a fresh emulator in this process. */
  baseUrl?: string
  /** With `baseUrl`: its control plane (URL or origin); absent, no control tools and no `check_slides`. */
  controlUrl?: string
  /** With `controlUrl`: the admin token. */
  adminToken?: string
  /** The session's first key (default a fixture key). */
  apiKey?: string
  /** The fresh emulator's seed, clock and time scale. */
  seed?: number
  clock?: 'real' | 'manual'
  timeScale?: number
  tools: ReadonlySet<ToolGroup>
}

type LocalEmulator = Awaited<ReturnType<typeof import('../cli/serve-modules.js')['createEmulator']>>

/** Runs the server until stdin ends; resolves with the exit code. */
export async function runMcpStdio(options: McpStdioOptions): Promise<number> {
  const log = (line: string) => process.stderr.write(`presentation-emulator mcp: ${line}\n`)
  // Nothing but protocol messages on stdout, whatever in this process logs.
  console.log = console.error
  console.info = console.error
  console.debug = console.error
  const { createEmulator } = await import('../cli/serve-modules.js')
  let local: LocalEmulator | undefined
  /** An emulator of this process: the fresh one served, or (with --base-url) the one whose slide checker checks files. */
  const localEmulator = async (): Promise<LocalEmulator> => {
    local ??= createEmulator({ seed: options.seed, clock: options.clock, timeScale: options.timeScale })
    await local.ready()
    return local
  }
  const checkFiles = async (project: string, slides: readonly DeckSlide[], budgetMs: number | undefined) =>
    checkDeck((await localEmulator()).emulator.slideChecker, project, slides, { budgetMs })

  let backend: McpBackend
  let where: string
  if (options.baseUrl === undefined) {
    const emulator = await localEmulator()
    backend = {
      fetch: emulator.fetch,
      apiUrl: emulator.emulator.apiUrl,
      control: createControlClient({ url: emulator.emulator.baseUrl.origin, fetch: emulator.fetch }),
      checkFiles,
    }
    where = `a fresh emulator in this process (seed ${options.seed ?? 1})`
  } else {
    backend = {
      fetch: globalThis.fetch,
      apiUrl: options.baseUrl,
      control:
        options.controlUrl === undefined ? undefined : createControlClient({ url: options.controlUrl, adminToken: options.adminToken }),
      checkFiles,
    }
    where = `${options.baseUrl}${options.controlUrl === undefined ? ' (no control URL: /v1 tools and file checks only)' : ` and ${options.controlUrl}`}`
  }
  const server = createMcpServer(backend, { apiKey: options.apiKey ?? DEFAULT_MCP_API_KEY, tools: options.tools, log })
  const transport = new StdioServerTransport()
  const closed = new Promise<void>((resolve) => {
    process.stdin.once('end', () => resolve())
    process.stdin.once('close', () => resolve())
  })
  await server.connect(transport)
  log(`serving MCP over stdio (tools: ${[...options.tools].join(', ')}) for ${where}`)
  await closed
  await server.close().catch(() => undefined)
  await local?.close().catch(() => undefined)
  return 0
}
