/**
 * The emulator as an MCP server (issue 34): the `/v1` operations, the
 * control plane and the slide checks as tools, the guides, the slides'
 * files and the API reference as resources, and one prompt. One server per
 * MCP session: the session's API key and its state snapshots are its own.
 *
 * The server reaches the emulator through a `McpBackend`: a fetch that
 * answers the emulator's paths (the socket-free one of an in-process
 * emulator, the Node server's dispatch for the HTTP row, or the network for
 * `--base-url`), and the control plane's client when there is one. So the
 * tools answer what `/v1` and `/_emulator` answer, byte for byte.
 *
 * This module imports the SDK; it is loaded only when MCP is used (the
 * `mcp` command, the first request to the `/mcp` row).
 */
import { McpServer, ResourceTemplate } from '@modelcontextprotocol/server'
import * as z from 'zod'
import type { ControlClient } from '../client/control.js'
import { ServiceApiError } from '../client/errors.js'
import { RENDERING_GUIDE } from '../content/rendering-guide.js'
import {
  AddFaultRequest,
  AdvanceClockRequest,
  CreateAccountRequest,
  CreateKeyRequest,
  FailJobRequest,
  SetCreditsRequest,
} from '../control/schemas.js'
import type { DeckSlide } from '../model/deck-check.js'
import { type DeckCheckResult, MAX_PICTURE_WIDTH, MIN_PICTURE_WIDTH } from '../model/slide-checks.js'
import { CheckSlidesRequest } from '../model/slide-check-service.js'
import { ProjectConfig } from '../schemas/index.js'
import { OPERATION_IDS } from '../schemas/operation-routes.js'
import { VERSION } from '../version.js'
import { apiToolSpecs, type ApiToolSpec, type ToolGroup } from './tools.js'

/** How the server reaches one emulator. */
export interface McpBackend {
  /** A fetch that answers the emulator's paths (`/v1/…`, `/_emulator/…`, `/openapi.json`). */
  readonly fetch: typeof fetch
  /** The API's base URL, ending in `/v1`. */
  readonly apiUrl: string
  /** The control plane's client, when the emulator's control plane is reachable (control tools, `check_slides`). */
  readonly control?: ControlClient
  /** Checks slides given as files with a slide checker (`check_slide_files`); absent, the tool is not listed. */
  checkFiles?(project: string, slides: readonly DeckSlide[], budgetMs: number | undefined): Promise<DeckCheckResult>
}

export interface McpServerOptions {
  /** The groups of tools to list (default all). */
  readonly tools?: ReadonlySet<ToolGroup>
  /** The session's first API key. */
  readonly apiKey: string
  /** Where the server's log lines go (stderr for stdio); never a key. */
  readonly log?: (line: string) => void
}

/** A tool's result: text for every host, and the same value as structured content. */
interface ToolResult {
  [key: string]: unknown
  content: Array<{ type: 'text'; text: string } | { type: 'image'; data: string; mimeType: string }>
  structuredContent?: Record<string, unknown>
  isError?: boolean
}

const KEY_PATTERN = /pres_[A-Za-z0-9_-]+/g
/** Every API key in `text` replaced (a key is a bearer secret: tool answers and logs never show one). */
export function redactKeys(text: string): string {
  return text.replace(KEY_PATTERN, 'pres_<redacted>')
}

function redactValue<T>(value: T): T {
  return JSON.parse(redactKeys(JSON.stringify(value))) as T
}

function ok(value: unknown, showKeys = false): ToolResult {
  const shown = showKeys ? value : redactValue(value)
  const structured =
    typeof shown === 'object' && shown !== null && !Array.isArray(shown) ? (shown as Record<string, unknown>) : { value: shown }
  return { content: [{ type: 'text', text: JSON.stringify(shown, null, 2) }], structuredContent: structured }
}

/** An API or control-plane refusal as a tool error: its status, its error body and `X-Service-Error-Code`. */
function refused(status: number, code: string | undefined, body: unknown): ToolResult {
  const shown = redactValue({ status, errorCode: code ?? null, body })
  const summary = `HTTP ${status}${code === undefined ? '' : ` ${code}`}`
  return { content: [{ type: 'text', text: `${summary}\n${JSON.stringify(shown, null, 2)}` }], structuredContent: shown, isError: true }
}

function errorResult(error: unknown): ToolResult {
  if (error instanceof ServiceApiError) return refused(error.status, error.code, error.body ?? error.text)
  return { content: [{ type: 'text', text: redactKeys(error instanceof Error ? error.message : String(error)) }], isError: true }
}

/**
 * A standard schema that validates with `schema` and hands the tool the
 * arguments as given (not parsed: defaults and transforms are the API's to
 * apply), so a tool call sends what a client would send.
 */
function asGiven(schema: z.ZodType) {
  const standard = schema['~standard']
  return {
    '~standard': {
      version: 1 as const,
      vendor: 'presentation-emulator',
      jsonSchema: (standard as unknown as { jsonSchema: unknown }).jsonSchema,
      validate: async (value: unknown) => {
        const result = await standard.validate(value)
        return result.issues === undefined ? { value } : result
      },
    },
  } as unknown as z.ZodType
}

/** The emulator's origin, from the API's base URL. */
function originOf(apiUrl: string): string {
  return new URL(apiUrl).origin
}

/** Builds one session's MCP server. */
export function createMcpServer(backend: McpBackend, options: McpServerOptions): McpServer {
  const groups = options.tools ?? new Set<ToolGroup>(['api', 'control', 'slides'])
  const log = (line: string) => options.log?.(redactKeys(line))
  const session = { apiKey: options.apiKey, snapshots: new Map<string, unknown>() }
  const server = new McpServer(
    { name: 'presentation-emulator', version: VERSION },
    {
      instructions:
        'An offline emulator of the Presentation Service API. API tools are named after the operation ids; control tools (emulator_*) reset, ' +
        'seed, inject faults and move the clock; check_slides / check_slide_files render slides as the editor does and report errors.',
    },
  )
  const base = backend.apiUrl.replace(/\/+$/, '')

  /** Calls `/v1` with the session's key; the answer as text, status and error code. */
  async function callApi(spec: ApiToolSpec, args: Record<string, unknown>): Promise<ToolResult> {
    let path = spec.operation.path
    for (const param of spec.pathParams) path = path.replace(`{${param}}`, encodeURIComponent(String(args[param])))
    const search = new URLSearchParams()
    for (const field of spec.queryFields) if (args[field] !== undefined) search.append(field, String(args[field]))
    const headers: Record<string, string> = { authorization: `Bearer ${session.apiKey}`, accept: 'application/json' }
    const init: RequestInit = { method: spec.operation.method, headers }
    if (args.body !== undefined) {
      headers['content-type'] = 'application/json'
      init.body = JSON.stringify(args.body)
    }
    const query = search.toString()
    const response = await backend.fetch(`${base}${path}${query === '' ? '' : `?${query}`}`, init)
    const text = await response.text()
    let body: unknown = text
    try {
      body = JSON.parse(text)
    } catch {}
    log(`${spec.name}: ${response.status}`)
    if (!response.ok) return refused(response.status, response.headers.get('x-service-error-code') ?? undefined, body)
    return ok(body)
  }

  if (groups.has('api')) {
    for (const spec of apiToolSpecs()) {
      server.registerTool(spec.name, { description: spec.description, inputSchema: asGiven(spec.input) }, (args) =>
        callApi(spec, args as Record<string, unknown>).catch(errorResult),
      )
    }
    server.registerTool(
      'set_api_key',
      {
        description:
          'Switches the API key the /v1 tools use, for this MCP session only (other sessions keep theirs). The answer never shows the key.',
        inputSchema: z.strictObject({ apiKey: z.string().min(1).meta({ description: 'The bearer key, pres_…' }) }),
      },
      ({ apiKey }) => {
        session.apiKey = apiKey
        log('set_api_key: the session key changed')
        return ok({ switched: true, note: 'the /v1 tools of this session now use the given key' })
      },
    )
  }

  const control = backend.control
  if (groups.has('control') && control !== undefined) registerControlTools(server, control, session, log)
  if (groups.has('slides')) registerSlideTools(server, backend, log)
  registerResources(server, backend, session, base)
  registerPrompt(server, groups)
  return server
}

type Log = (line: string) => void
const wrap =
  <A>(name: string, log: Log, run: (args: A) => Promise<unknown>, showKeys = false) =>
  async (args: A): Promise<ToolResult> => {
    try {
      const value = await run(args)
      log(`${name}: ok`)
      return ok(value, showKeys)
    } catch (error) {
      log(`${name}: refused`)
      return errorResult(error)
    }
  }

/**
 * Registers tools on `server` whose answers are `wrap`ped: the tool's name
 * given once, for the listing and the log.
 */
function toolsOf(server: McpServer, log: Log) {
  // The SDK works out a callback's type from its own schema generic, which a generic here cannot name: `run` is typed from the same schema.
  return <S extends z.ZodType>(
    name: string,
    config: { description: string; inputSchema: S },
    run: (args: z.infer<S>) => Promise<unknown>,
    showKeys = false,
  ) => server.registerTool(name, config, wrap(name, log, run, showKeys) as never)
}

function registerControlTools(server: McpServer, control: ControlClient, session: { snapshots: Map<string, unknown> }, log: Log): void {
  const none = z.strictObject({})
  const tool = toolsOf(server, log)
  tool(
    'emulator_reset',
    {
      description: 'Resets the emulator to its seeded world (fixtures, clock, credits); faults and the journal are cleared.',
      inputSchema: none,
    },
    () => control.reset(),
  )
  tool(
    'emulator_create_account',
    {
      description:
        'Creates a user with a personal team and an API key. The answer holds the new key (the one tool answer besides emulator_create_key that does).',
      inputSchema: CreateAccountRequest,
    },
    (args) => control.createAccount(args),
    true,
  )
  tool(
    'emulator_create_key',
    { description: 'Creates an API key for a user (and a team of theirs). The answer holds the new key.', inputSchema: CreateKeyRequest },
    (args) => control.createKey(args),
    true,
  )
  tool(
    'emulator_revoke_key',
    {
      description: 'Revokes an API key by its key id (key_…); calls with it answer 401.',
      inputSchema: z.strictObject({ keyId: z.string().min(1) }),
    },
    ({ keyId }) => control.revokeKey(keyId),
  )
  tool(
    'emulator_set_credits',
    {
      description: 'Sets a team’s generation credits (0 makes generateProject answer 402).',
      inputSchema: z.strictObject({ teamId: z.string().min(1), ...SetCreditsRequest.shape }),
    },
    ({ teamId, credits }) => control.setCredits(teamId, { credits }),
  )
  tool(
    'emulator_clock',
    { description: 'Reads the emulator’s clock: now, its mode (real or manual) and time scale.', inputSchema: none },
    () => control.clock(),
  )
  tool(
    'emulator_advance_clock',
    { description: 'Moves the clock forward by ms; generation jobs due by then complete.', inputSchema: AdvanceClockRequest },
    (args) => control.advanceClock(args),
  )
  tool(
    'emulator_complete_job',
    { description: 'Completes a processing generation job now.', inputSchema: z.strictObject({ jobId: z.string().min(1) }) },
    ({ jobId }) => control.completeJob(jobId),
  )
  tool(
    'emulator_fail_job',
    {
      description: 'Fails a processing generation job now (its credit is refunded).',
      inputSchema: z.strictObject({ jobId: z.string().min(1), ...FailJobRequest.shape }),
    },
    ({ jobId, error }) => control.failJob(jobId, error === undefined ? {} : { error }),
  )
  tool(
    'emulator_add_fault',
    {
      description:
        'Injects a fault: the next calls of operationId (or * for all) answer status (with error, code, retryAfter) and/or wait delayMs, times times (default once).',
      inputSchema: AddFaultRequest,
    },
    (args) => control.addFault(args as AddFaultRequest),
  )
  tool('emulator_list_faults', { description: 'Lists the faults still armed.', inputSchema: none }, () => control.listFaults())
  tool('emulator_clear_faults', { description: 'Removes every fault.', inputSchema: none }, () => control.clearFaults())
  tool(
    'emulator_journal',
    {
      description: 'Lists the /v1 requests the emulator answered, newest last (keys shown as their key ids).',
      inputSchema: z.strictObject({
        operationId: z.enum(OPERATION_IDS as [string, ...string[]]).optional(),
        limit: z.number().int().min(1).max(10_000).optional(),
      }),
    },
    (args) => control.listRequests(args as Parameters<ControlClient['listRequests']>[0]),
  )
  tool(
    'emulator_client_report',
    {
      description:
        'The client report (docs/guides/client-report.md): how the calls made with each key (or keyId alone) use the API: polling, the rate limit, generate after a 402 or a timeout, 401s, pagination, the editing indicator, bodies. Each finding has a rule id, a severity, the spec clause and the request ids that show it. since: a request id (req_<n>) or a mark from emulator_mark_client_report.',
      inputSchema: z.strictObject({ keyId: z.string().min(1).optional(), since: z.string().min(1).optional() }),
    },
    (args) => control.clientReport(args),
  )
  tool(
    'emulator_mark_client_report',
    {
      description: 'A mark at the newest request so far: emulator_client_report { since: mark } judges only the calls after it.',
      inputSchema: none,
    },
    () => control.markClientReport(),
  )
  tool(
    'emulator_export_state',
    {
      description:
        'Exports the emulator’s whole state and keeps it in this session under `name` (default "last") for emulator_import_state. ' +
        'With include: true the answer holds the document too, its API keys redacted.',
      inputSchema: z.strictObject({ name: z.string().min(1).max(100).optional(), include: z.boolean().optional() }),
    },
    async ({ name, include }) => {
      const document = await control.getState()
      const kept = name ?? 'last'
      session.snapshots.set(kept, document)
      // Each table of the document (users, projects, slides, …) by its number of rows.
      const counts = Object.fromEntries(
        Object.entries(document as Record<string, unknown>)
          .filter(([, rows]) => Array.isArray(rows))
          .map(([table, rows]) => [table, (rows as unknown[]).length]),
      )
      return include === true ? { snapshot: kept, counts, document } : { snapshot: kept, counts }
    },
  )
  tool(
    'emulator_import_state',
    {
      description: 'Replaces the emulator’s state with a snapshot this session exported (by name), or with a state document given in full.',
      inputSchema: z.strictObject({
        snapshot: z.string().min(1).max(100).optional(),
        document: z.record(z.string(), z.unknown()).optional(),
      }),
    },
    async ({ snapshot, document }) => {
      if ((snapshot === undefined) === (document === undefined))
        throw new Error('give snapshot (a name emulator_export_state kept) or document, not both')
      const chosen = snapshot === undefined ? document : session.snapshots.get(snapshot)
      if (chosen === undefined) throw new Error(`snapshot: no snapshot named "${snapshot}" in this session`)
      return control.putState(chosen)
    },
  )
}

const SlideFilesInput = z.strictObject({
  'slide.tsx': z.string(),
  'slide.content.json': z.string().optional(),
  'slide.controls.json': z.string().optional(),
})

/**
 * The slide tools: the one place they are registered (their names are
 * `SLIDE_TOOLS` in `tools.ts`, which the tests and the guide are held to).
 */
function registerSlideTools(server: McpServer, backend: McpBackend, log: Log): void {
  const tool = toolsOf(server, log)
  const control = backend.control
  if (control !== undefined) {
    server.registerTool(
      'slide_picture',
      {
        description:
          'A PNG of one slide as the editor renders it (headless Chromium, the editor’s sandboxed renderer), width pixels wide (320 to 3840, default 1280) and width × 9/16 high, as image content: look at it for text that overflows, clashing colours or an empty slide. A slide that does not render is a tool error (400 SLIDE_DOES_NOT_RENDER, as check_slides reports it); without a browser, a tool error (503 SLIDE_CHECKER_UNAVAILABLE) saying how to provide one (CHROMIUM_PATH).',
        inputSchema: z.strictObject({
          slug: z.string().min(1),
          slideId: z.string().min(1),
          width: z.number().int().min(MIN_PICTURE_WIDTH).max(MAX_PICTURE_WIDTH).optional(),
        }),
      },
      async ({ slug, slideId, width }): Promise<ToolResult> => {
        try {
          const png = await control.slidePicture(slug, slideId, width === undefined ? {} : { width })
          log('slide_picture: ok')
          return { content: [{ type: 'image', data: Buffer.from(png).toString('base64'), mimeType: 'image/png' }] }
        } catch (error) {
          log('slide_picture: refused')
          return errorResult(error)
        }
      },
    )
    tool(
      'check_slides',
      {
        description:
          'Checks a project’s slides (all, or slideIds) as the editor renders them: each slide rendered, error (with the slide.tsx line and column), timeout, too-large or crashed.',
        inputSchema: z.strictObject({ slug: z.string().min(1), ...CheckSlidesRequest.shape }),
      },
      ({ slug, ...input }) => control.checkSlides(slug, input),
    )
  }
  const checkFiles = backend.checkFiles
  if (checkFiles !== undefined) {
    tool(
      'check_slide_files',
      {
        description:
          'Checks slides given as files (not stored anywhere) as the editor renders them, styled by config (default a new project’s). Same report as check_slides.',
        inputSchema: z.strictObject({
          slides: z
            .array(z.strictObject({ slideId: z.string().min(1).max(200).optional(), files: SlideFilesInput }))
            .min(1)
            .max(100),
          config: ProjectConfig.optional(),
          budgetMs: CheckSlidesRequest.shape.budgetMs,
        }),
      },
      async ({ slides, config, budgetMs }) => {
        const { newProjectConfig } = await import('../model/projects.js')
        const projectConfig = config ?? newProjectConfig()
        const deck: DeckSlide[] = slides.map((slide, index) => ({
          slideId: slide.slideId ?? `slide-${index + 1}`,
          load: async () => ({
            files: { 'slide.content.json': '{}\n', 'slide.controls.json': '{ "controls": [] }\n', ...slide.files },
            config: projectConfig,
          }),
        }))
        return checkFiles('files', deck, budgetMs)
      },
    )
  }
}

const SLIDE_FILE_NAMES = ['slide.tsx', 'slide.content.json', 'slide.controls.json'] as const

function registerResources(server: McpServer, backend: McpBackend, session: { apiKey: string }, base: string): void {
  const readApi = async (path: string): Promise<{ status: number; body: unknown }> => {
    const response = await backend.fetch(`${base}${path}`, {
      headers: { authorization: `Bearer ${session.apiKey}`, accept: 'application/json' },
    })
    const text = await response.text()
    if (!response.ok) {
      const code = response.headers.get('x-service-error-code')
      throw new Error(`${response.status}${code === null ? '' : ` ${code}`}: ${redactKeys(text)}`)
    }
    return { status: response.status, body: JSON.parse(text) }
  }
  server.registerResource(
    'rendering-guide',
    'presentation://guides/rendering',
    {
      description: 'What a slide.tsx receives and may import: props, box, CSS variables, class names, designs.',
      mimeType: 'application/json',
    },
    (uri) => ({ contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(RENDERING_GUIDE, null, 2) }] }),
  )
  server.registerResource(
    'api-reference',
    'presentation://reference/openapi.json',
    { description: 'The OpenAPI 3.1 document of the API this emulator serves.', mimeType: 'application/json' },
    async (uri) => {
      const response = await backend.fetch(`${originOf(backend.apiUrl)}/openapi.json`)
      if (!response.ok) throw new Error(`the emulator answered ${response.status} for /openapi.json`)
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: await response.text() }] }
    },
  )
  server.registerResource(
    'slide-guide',
    new ResourceTemplate('presentation://projects/{slug}/slides/guide', { list: undefined }),
    {
      description:
        'A project’s slide guide (GET /v1/projects/{slug}/slides/guide): token naming rules, file conventions, validation, rendering.',
      mimeType: 'application/json',
    },
    async (uri, { slug }) => {
      const { body } = await readApi(`/projects/${encodeURIComponent(String(slug))}/slides/guide`)
      return { contents: [{ uri: uri.href, mimeType: 'application/json', text: JSON.stringify(body, null, 2) }] }
    },
  )
  server.registerResource(
    'slide-file',
    new ResourceTemplate('presentation://projects/{slug}/slides/{slideId}/{file}', { list: undefined }),
    {
      description: 'One of a slide’s three files (slide.tsx, slide.content.json, slide.controls.json), read with this session’s key.',
    },
    async (uri, { slug, slideId, file }) => {
      const name = String(file)
      if (!(SLIDE_FILE_NAMES as readonly string[]).includes(name))
        throw new Error(`404: a slide has no file ${name}; it has ${SLIDE_FILE_NAMES.join(', ')}`)
      const { body } = await readApi(`/projects/${encodeURIComponent(String(slug))}/slides/${encodeURIComponent(String(slideId))}/files`)
      const files = (body as { files: Record<string, string> }).files
      const mimeType = name.endsWith('.json') ? 'application/json' : 'text/tsx'
      return { contents: [{ uri: uri.href, mimeType, text: files[name] ?? '' }] }
    },
  )
}

function registerPrompt(server: McpServer, groups: ReadonlySet<ToolGroup>): void {
  server.registerPrompt(
    'write_slide',
    {
      description: 'Write a slide for a project: read the guide, write the files, check them, fix until the check says rendered.',
      argsSchema: z.object({ slug: z.string().min(1), brief: z.string().min(1) }),
    },
    ({ slug, brief }) => ({
      messages: [
        {
          role: 'user',
          content: {
            type: 'text',
            text: [
              `Write a slide for the project "${slug}": ${brief}`,
              '',
              `1. Read the resource presentation://projects/${slug}/slides/guide (file conventions, tokens) and presentation://guides/rendering (what slide.tsx receives and may import).`,
              '2. Add the slide with createSlide (or change one with updateSlide); a 400 names the file, line and column to fix.',
              groups.has('slides')
                ? `3. Run check_slides with slug "${slug}" and the slide's id; if it is not "rendered", fix the line it names and check again.`
                : '3. Read the slide back with getSlideFiles.',
            ].join('\n'),
          },
        },
      ],
    }),
  )
}
