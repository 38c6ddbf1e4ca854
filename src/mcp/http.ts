/**
 * The MCP server over Streamable HTTP: the mount table's `/mcp` row
 * (`mounts.ts`), loaded on the row's first request, so an emulator that
 * never serves MCP never loads this module or the SDK.
 *
 * Guarded like the control plane: the admin token on every request when one
 * is set (else 401, as `/_emulator` answers), the `own-origins` browser
 * policy of the row (a foreign page's request is refused 403 before this
 * runs) and the HTTP server's `Host` check. Each MCP session (the
 * `Mcp-Session-Id` the transport hands out) has its own server: its own API
 * key and state snapshots, never shared.
 *
 * Answers are JSON (the transport's `enableJsonResponse`): the tools answer
 * once, so no request needs a stream; `GET` (a server-to-client stream) is
 * 405, which the protocol allows.
 */
import { WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server'
import { createFetch, type Routing } from '../adapters/fetch.js'
import { createControlClient } from '../client/control.js'
import { adminTokenRefusal } from '../control/admin-token.js'
import type { EmulatorRequest, EmulatorResponse } from '../core/exchange.js'
import { checkDeck } from '../model/deck-check.js'
import type { SlideChecker } from '../model/slide-checker.js'
import type { MountContext, MountHandler } from '../mounts.js'
import { DEFAULT_MCP_API_KEY } from './defaults.js'
import { createMcpServer, type McpBackend } from './server.js'

/** What the row needs of the emulator that hosts it. */
export interface McpHost {
  readonly adminToken: string | undefined
  readonly apiUrl: string
  readonly baseUrl: URL
  readonly mounts: Routing
  readonly slideChecker: SlideChecker
  handle(request: EmulatorRequest): Promise<EmulatorResponse>
}

/** At most this many sessions are kept; the oldest is closed when one more starts. */
export const MAX_MCP_SESSIONS = 64

function bearer(value: string | undefined): string | undefined {
  const match = value === undefined ? null : /^Bearer\s+(.+)$/i.exec(value)
  return match?.[1]?.trim()
}

const jsonRpcError = (status: number, message: string): EmulatorResponse => ({
  status,
  headers: { 'content-type': 'application/json; charset=utf-8' },
  body: JSON.stringify({ jsonrpc: '2.0', error: { code: -32000, message }, id: null }),
})

/** The `/mcp` row's handler for one emulator. */
export function mcpHttpHandler({ host }: MountContext<McpHost>): MountHandler {
  const emulatorFetch = createFetch(
    (request) => host.handle(request),
    () => host.baseUrl.pathname,
    host.mounts,
  )
  const backend: McpBackend = {
    fetch: emulatorFetch,
    get apiUrl() {
      return host.baseUrl.href
    },
    // The request was let in with the admin token (when set), so the tools call the control plane with it.
    control: createControlClient({ url: host.baseUrl.origin, adminToken: host.adminToken, fetch: emulatorFetch }),
    checkFiles: (project, slides, budgetMs) => checkDeck(host.slideChecker, project, slides, { budgetMs }),
  }
  const sessions = new Map<string, WebStandardStreamableHTTPServerTransport>()

  async function open(): Promise<WebStandardStreamableHTTPServerTransport> {
    const transport: WebStandardStreamableHTTPServerTransport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => crypto.randomUUID(),
      enableJsonResponse: true,
      onsessioninitialized: (id) => {
        sessions.set(id, transport)
        if (sessions.size > MAX_MCP_SESSIONS) {
          const [oldest] = sessions.keys()
          if (oldest !== undefined) {
            void sessions.get(oldest)?.close()
            sessions.delete(oldest)
          }
        }
      },
      onsessionclosed: (id) => {
        sessions.delete(id)
      },
    })
    const server = createMcpServer(backend, { apiKey: DEFAULT_MCP_API_KEY })
    await server.connect(transport)
    return transport
  }

  return async (request) => {
    const refusal = adminTokenRefusal(host.adminToken, bearer(request.headers.authorization))
    if (refusal !== undefined) return refusal.toResponse()
    if (request.method === 'GET') return { status: 405, headers: { allow: 'POST, DELETE' }, body: null }
    if (request.method !== 'POST' && request.method !== 'DELETE') return { status: 405, headers: { allow: 'POST, DELETE' }, body: null }
    if (request.bodyTooLarge === true) return jsonRpcError(413, 'the request body is too large')
    const sessionId = request.headers['mcp-session-id']
    let transport: WebStandardStreamableHTTPServerTransport | undefined
    if (sessionId !== undefined) {
      transport = sessions.get(sessionId)
      if (transport === undefined) return jsonRpcError(404, 'no such MCP session (it ended, or the emulator restarted): initialize again')
    } else {
      if (request.method !== 'POST') return jsonRpcError(400, 'no Mcp-Session-Id: initialize first')
      transport = await open()
    }
    const headers = new Headers()
    for (const [name, value] of Object.entries(request.headers)) if (value !== undefined) headers.set(name, value)
    const url = `http://${request.headers.host ?? 'localhost'}${request.path}${request.query === '' ? '' : `?${request.query}`}`
    const body = request.body === null ? null : new Uint8Array(request.body)
    const response = await transport.handleRequest(new Request(url, { method: request.method, headers, body }))
    const out: Record<string, string> = {}
    response.headers.forEach((value, name) => {
      out[name] = value
    })
    const text = await response.text()
    return { status: response.status, headers: out, body: text === '' ? null : text }
  }
}
