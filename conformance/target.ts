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
  /** Projects a deployment's person set up for the rules only a control plane could otherwise arrange. */
  fixtures: { collaboratorProject?: string; teamProject?: string; otherTeamTemplate?: string }
  /** The fetch the API is reached through: the kit also opens pages with it (a project's published site). */
  fetch: typeof fetch
  /** The kit may reset the emulator (`POST /_emulator/reset`): it started it, or `--allow-reset` with a control URL. */
  allowReset: boolean
  /** The emulator's control plane, when the target has it. */
  control: ControlClient | undefined
  /** Run the emulator checks: the target is our emulator (and they were not turned off). */
  emulatorChecks: boolean
  /** The emulator's seeded world is untouched (the kit started the emulator). */
  seededWorld: boolean
  allowWrites: boolean
  allowGeneration: boolean
  /**
   * Every scenario acts with accounts of its own (a control plane and no
   * `--api-key`): scenarios run together and list walks are judged whole.
   * With `--api-key`, even beside a control plane, the main key is the
   * user's, shared by every scenario.
   */
  isolated: boolean
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
  /** The slug of a project shared with the main key's user as a collaborator (owned by a team the user is not in). */
  collaboratorProject?: string
  /** The slug of a project owned by another team the main key's user belongs to (not the key's own team). */
  teamProject?: string
  /** The id of a template of the other key's team (not the main key's): another team's template is 404 on generate. */
  otherTeamTemplate?: string
  /** With `controlUrl`: the kit may reset the emulator (which clears everyone's state on it). */
  allowReset?: boolean
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

export async function resolveTarget(options: TargetOptions): Promise<Target> {
  const emulatorChecks = options.emulatorChecks ?? true
  if (options.baseUrl === undefined && options.fetch === undefined) {
    // An emulator of our own, through the package's public entry (loaded only when needed):
    // manual clock (waits are instant), the spec's rate limit.
    const { createEmulator } = await import('../src/index.js')
    const emulator = createEmulator({ clock: 'manual', rateLimit: options.ownRateLimit ?? 50 })
    await emulator.ready()
    let baseUrl = 'http://127.0.0.1:4010/v1'
    let doFetch: typeof fetch = emulator.fetch
    let kind: TargetKind = 'in-process'
    if (options.target === 'http') {
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
      fixtures: {},
      fetch: doFetch,
      allowReset: true,
      control,
      emulatorChecks,
      seededWorld: true,
      allowWrites: true,
      allowGeneration: true,
      isolated: true,
      pace: false,
      clock: options.clock ?? controlClock(control),
      close: () => emulator.close(),
    }
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
    fixtures: {
      ...(options.collaboratorProject === undefined ? {} : { collaboratorProject: options.collaboratorProject }),
      ...(options.teamProject === undefined ? {} : { teamProject: options.teamProject }),
      ...(options.otherTeamTemplate === undefined ? {} : { otherTeamTemplate: options.otherTeamTemplate }),
    },
    fetch: doFetch,
    allowReset: control !== undefined && options.allowReset === true,
    control,
    emulatorChecks: emulatorChecks && control !== undefined,
    seededWorld: false,
    allowWrites: options.allowWrites === true,
    allowGeneration: options.allowGeneration === true,
    // With --api-key the user's key is the main key, control plane or not (issue 36: it was ignored).
    isolated: control !== undefined && options.apiKey === undefined,
    pace: control === undefined || options.apiKey !== undefined,
    clock: options.clock ?? (control === undefined ? realClock : controlClock(control)),
    close: async () => undefined,
  }
}
