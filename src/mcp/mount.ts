/**
 * The MCP server's row of the mount table (`/mcp`, Streamable HTTP). The
 * Node entry adds it (`src/index.ts`), as it adds the web room's rows: the
 * browser entry (msw in a page) serves no MCP and bundles none of it. The
 * row's module and the SDK load with its first request, so an emulator that
 * never serves MCP never loads them.
 */
import { MAX_BODY_BYTES } from '../core/exchange.js'
import type { Mount } from '../mounts.js'
import { MCP_PATH } from './defaults.js'
import type { McpHost } from './http.js'

/** The largest MCP request: a tool call carries at most an API body (1 MiB) or a few slides' files, JSON-escaped. */
const MAX_MCP_BODY_BYTES = 4 * MAX_BODY_BYTES

export const MCP_MOUNT: Mount<McpHost> = {
  name: 'the MCP server',
  path: MCP_PATH,
  match: 'exact',
  bodyLimit: MAX_MCP_BODY_BYTES,
  // Guarded as the control plane is: a foreign page may not call it (403), the HTTP server checks Host,
  // and the handler asks for the admin token when one is set.
  browsers: 'own-origins',
  open: async (context) => {
    const { mcpHttpHandler } = await import('./http.js')
    return mcpHttpHandler(context)
  },
}
