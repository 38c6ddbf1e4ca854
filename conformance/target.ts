/**
 * What the kit runs against: an in-process emulator (no socket), an emulator
 * it starts over HTTP, or any deployment (a base URL and keys, or an
 * in-process `fetch` such as a Hono or Express app's). The emulator is
 * started only through the package's public entry.
 */
import { createClient, createControlClient, type ControlClient, type PresentationClient } from '../src/client/index.js'
import type { Clock } from './pacer.js'

export type TargetKind = 'in-process' | 'http' | 'deployment'

export interface Target {
  kind: TargetKind
  baseUrl: string
  /** The client every API request goes through (raw mode). */
  client: PresentationClient
  keys: { main?: string; other?: string; revoked?: string; noCredits?: string }
  /** The emulator's control plane, when the target has it. */
  control: ControlClient | undefined
  /** Run the emulator checks: the target is our emulator (and they were not turned off). */
  emulatorChecks: boolean
  /** The emulator's seeded world is untouched (the kit started the emulator). */
  seededWorld: boolean
  allowWrites: boolean
  allowGeneration: boolean
  /** Pace requests by the rate limit (not needed with fresh accounts per scenario). */
  pace: boolean
  /** The target's time: waits move a control plane's clock instead of sleeping. */
  clock: Clock
  close(): Promise<void>
}

/** How to reach a target, as `runConformance` takes it. */
export interface TargetOptions {
  /** `in-process` (default when no base URL or fetch is given) or `http` (an emulator the kit starts on a free port). */
  target?: 'in-process' | 'http'
  /** A deployment's API base URL, ending in `/v1`. */
  baseUrl?: string
  /** A fetch answering the API (an in-process app); `baseUrl` defaults to `http://localhost/v1`. */
  fetch?: typeof fetch
  apiKey?: string
  otherTeamKey?: string
  revokedKey?: string
  noCreditsKey?: string
  /** The emulator's control plane of a deployment (`http://host:4010/_emulator`). */
  controlUrl?: string
  adminToken?: string
  /** The fetch for the control plane (default: `fetch`, or the global one). */
  controlFetch?: typeof fetch
  allowWrites?: boolean
  allowGeneration?: boolean
  /** Run the emulator checks when the target is our emulator. Default true. */
  emulatorChecks?: boolean
  /** The target's time, for a test that drives a virtual clock. */
  clock?: Clock
  /** The rate limit of an emulator the kit starts (default: the spec's 50 per minute). */
  ownRateLimit?: number
}

/** A configuration error: exit code 2. */
export class ConfigurationError extends Error {
  override readonly name = 'ConfigurationError'
}

const realClock: Clock = {
  now: async () => Date.now(),
  sleep: (ms) => new Promise((resolve) => setTimeout(resolve, Math.max(0, ms))),
}

/** A clock moved through the control plane: waiting is instant. */
function controlClock(control: ControlClient): Clock {
  return {
    now: async () => Date.parse((await control.clock()).now),
    sleep: async (ms) => {
      if (ms > 0) await control.advanceClock({ ms: Math.ceil(ms) })
    },
  }
}

/** Whether `control` answers as our emulator's control plane; 'unauthorized' when it refuses the admin token. */
async function isOurControlPlane(control: ControlClient): Promise<boolean | 'unauthorized'> {
  try {
    const health = await control.health()
    return health.status === 'ok' && typeof health.version === 'string'
  } catch (error) {
    return (error as { status?: unknown }).status === 401 ? 'unauthorized' : false
  }
}

/**
 * An emulator the kit starts itself, through the package's public entry
 * (loaded only when needed), on a manual clock: in-process (no socket), or
 * over HTTP on a free port. The suite's own target and the walk's oracle.
 */
export async function ownEmulator(options: {
  rateLimit: number
  http?: boolean
  emulatorChecks: boolean
  seededWorld: boolean
  clock?: Clock
}): Promise<Target> {
  const { createEmulator, DEFAULT_BASE_URL } = await import('../src/index.js')
  const emulator = createEmulator({ clock: 'manual', rateLimit: options.rateLimit })
  await emulator.ready()
  let baseUrl = DEFAULT_BASE_URL
  let doFetch: typeof fetch = emulator.fetch
  let kind: TargetKind = 'in-process'
  if (options.http === true) {
    const server = await emulator.listen({ port: 0, host: '127.0.0.1' })
    baseUrl = `${server.origin}/v1`
    doFetch = globalThis.fetch
    kind = 'http'
  }
  const control = createControlClient({ url: new URL(baseUrl).origin, fetch: doFetch })
  return {
    kind,
    baseUrl,
    client: createClient({ baseUrl, fetch: doFetch }),
    keys: {},
    control,
    emulatorChecks: options.emulatorChecks,
    seededWorld: options.seededWorld,
    allowWrites: true,
    allowGeneration: true,
    pace: false,
    clock: options.clock ?? controlClock(control),
    close: () => emulator.close(),
  }
}

export async function resolveTarget(options: TargetOptions): Promise<Target> {
  const emulatorChecks = options.emulatorChecks ?? true
  if (options.baseUrl === undefined && options.fetch === undefined) {
    // An emulator of our own: manual clock (waits are instant), the spec's rate limit.
    return ownEmulator({
      rateLimit: options.ownRateLimit ?? 50,
      http: options.target === 'http',
      emulatorChecks,
      seededWorld: true,
      ...(options.clock === undefined ? {} : { clock: options.clock }),
    })
  }

  const baseUrl = (options.baseUrl ?? 'http://localhost/v1').replace(/\/+$/, '')
  try {
    new URL(baseUrl)
  } catch {
    throw new ConfigurationError(`--base-url is not an absolute URL: ${baseUrl}`)
  }
  const doFetch = options.fetch ?? globalThis.fetch
  let control: ControlClient | undefined
  if (options.controlUrl !== undefined) {
    control = createControlClient({
      url: options.controlUrl,
      fetch: options.controlFetch ?? doFetch,
      ...(options.adminToken === undefined ? {} : { adminToken: options.adminToken }),
    })
    const answer = await isOurControlPlane(control)
    if (answer === 'unauthorized') {
      throw new ConfigurationError(
        `the control plane at ${options.controlUrl} refuses ${options.adminToken === undefined ? 'requests without an admin token: pass --admin-token' : 'the --admin-token given'} (401)`,
      )
    }
    if (!answer) {
      throw new ConfigurationError(
        `--control-url ${options.controlUrl} does not answer as the emulator's control plane (GET /_emulator/health)`,
      )
    }
  }
  if (options.apiKey === undefined && control === undefined) {
    throw new ConfigurationError('a deployment needs --api-key (or CONFORMANCE_API_KEY), or a --control-url to create accounts with')
  }
  return {
    kind: 'deployment',
    baseUrl,
    client: createClient({ baseUrl, fetch: doFetch }),
    keys: {
      ...(options.apiKey === undefined ? {} : { main: options.apiKey }),
      ...(options.otherTeamKey === undefined ? {} : { other: options.otherTeamKey }),
      ...(options.revokedKey === undefined ? {} : { revoked: options.revokedKey }),
      ...(options.noCreditsKey === undefined ? {} : { noCredits: options.noCreditsKey }),
    },
    control,
    emulatorChecks: emulatorChecks && control !== undefined,
    seededWorld: false,
    allowWrites: options.allowWrites === true,
    allowGeneration: options.allowGeneration === true,
    pace: control === undefined,
    clock: options.clock ?? (control === undefined ? realClock : controlClock(control)),
    close: async () => undefined,
  }
}
