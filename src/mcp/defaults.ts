/** The API key an MCP session starts with when none is given (`--api-key`, `PRESENTATION_API_KEY`): Alice's fixture key. */
export const DEFAULT_MCP_API_KEY = 'pres_test_alice'

/** Where the emulator serves MCP over Streamable HTTP (a row of the mount table). */
export const MCP_PATH = '/mcp'

/** The groups of tools `--tools` chooses from. */
export const TOOL_GROUPS = ['api', 'control', 'slides'] as const
export type ToolGroup = (typeof TOOL_GROUPS)[number]
