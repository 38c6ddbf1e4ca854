/**
 * What the MCP tests share: the call sequence every `/v1` tool is driven
 * through (once as MCP tool calls, once as HTTP requests to a second
 * emulator with the same seed), and how a tool's answer reads as an HTTP
 * outcome.
 */
import type { Client } from '@modelcontextprotocol/client'
import { operations, type OperationId } from '../../src/schemas/operations.js'
import { pathParamsOf } from '../../src/mcp/tools.js'

/** One call's outcome, as both ways report it. */
export interface Outcome {
  status: number
  code: string | null
  body: unknown
}

export type Caller = (tool: OperationId, args: Record<string, unknown>) => Promise<Outcome>

export const VALID_TSX = `import content from "./slide.content.json";

export default function Agenda() {
  return <section className="slide"><h1>{content.title}</h1></section>;
}
`
export const BROKEN_TSX = `export default function Slide() {
  const style = {
    color: "red" margin: 0 };
  return <h1 style={style}>Hi</h1>;
}
`
export const BROKEN_AT_RUNTIME_TSX = `export default function Slide() {
  const items = undefined;
  return <h1>{items.length}</h1>;
}
`

/** Every operation at least once, in an order that makes each call meaningful, with a few refusals among them. */
export async function callSequence(call: Caller): Promise<Array<{ tool: OperationId; outcome: Outcome }>> {
  const log: Array<{ tool: OperationId; outcome: Outcome }> = []
  const run = async (tool: OperationId, args: Record<string, unknown> = {}) => {
    const outcome = await call(tool, args)
    log.push({ tool, outcome })
    return outcome.body as any
  }
  await run('listTeams')
  await run('listTemplates', { limit: '5' })
  await run('listProjects', { limit: '2' })
  await run('listProjects', { published: 'true' })
  const { projectSlug: slug } = await run('createProject', { body: { name: 'MCP deck' } })
  await run('getProject', { slug })
  await run('renameProject', { slug, body: { name: 'Renamed by an agent' } })
  await run('getProjectConfig', { slug })
  await run('updateProjectConfig', { slug, body: { config: {} } })
  await run('duplicateProject', { slug })
  await run('publishProject', { slug })
  await run('getProjectUrl', { slug })
  await run('unpublishProject', { slug })
  await run('getProject', { slug: 'no-such-project' })
  await run('listSlides', { slug: 'welcome-deck' })
  await run('getSlideGuide', { slug })
  const { slideId } = await run('createSlide', { slug, body: { name: 'Agenda' } })
  await run('getSlideFiles', { slug, slideId })
  await run('updateSlide', { slug, slideId, body: { files: { 'slide.tsx': VALID_TSX } } })
  await run('updateSlide', { slug, slideId, body: { files: { 'slide.tsx': BROKEN_TSX } } })
  await run('startSlideEditing', { slug, slideId, body: { agentName: 'mcp-agent' } })
  await run('stopSlideEditing', { slug, slideId })
  const { jobId } = await run('generateProject', { body: { prompt: 'Quarterly results for the board' } })
  await run('getJobStatus', { jobId })
  await run('getJobStatus', { jobId: 'job_missing' })
  return log
}

/** The HTTP request a tool call stands for, sent with `fetch` and `apiKey`; its outcome. */
export function httpCaller(fetchFn: typeof fetch, apiUrl: string, apiKey: string): Caller {
  return async (tool, args) => {
    const operation = operations[tool]
    let path: string = operation.path
    for (const param of pathParamsOf(path)) path = path.replace(`{${param}}`, encodeURIComponent(String(args[param])))
    const search = new URLSearchParams()
    for (const [name, value] of Object.entries(args))
      if (name !== 'body' && !path.includes(`{${name}}`) && !pathParamsOf(operation.path).includes(name)) search.append(name, String(value))
    const headers: Record<string, string> = { authorization: `Bearer ${apiKey}` }
    const init: RequestInit = { method: operation.method, headers }
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(args.body)
    }
    const query = search.toString()
    const response = await fetchFn(`${apiUrl}${path}${query === '' ? '' : `?${query}`}`, init)
    const text = await response.text()
    return { status: response.status, code: response.headers.get('x-service-error-code'), body: text === '' ? null : JSON.parse(text) }
  }
}

/** A tool call's outcome: 200 and the structured content, or the status, code and body a tool error carries. */
export function mcpCaller(client: Client, answers: unknown[] = []): Caller {
  return async (tool, args) => {
    const result = await client.callTool({ name: tool, arguments: args })
    answers.push(result)
    const structured = result.structuredContent as Record<string, unknown>
    if (structured === undefined) throw new Error(`${tool}: ${JSON.stringify(result.content)}`)
    if (result.isError === true)
      return { status: structured.status as number, code: structured.errorCode as string | null, body: structured.body }
    return { status: 200, code: null, body: structured }
  }
}

/** Every `pres_…` string in `value` (a key, or any text that names one). */
export function keysIn(value: unknown): string[] {
  return [...JSON.stringify(value).matchAll(/pres_(?!<redacted>)[A-Za-z0-9_-]+/g)].map((match) => match[0])
}
