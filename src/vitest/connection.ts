import { ServiceError } from '../core/errors.js'

/** Where a running emulator is, as the vitest global setup provides it to every test file. */
export interface EmulatorConnection {
  /** The API base URL clients call: `http://127.0.0.1:<port>/v1`. */
  baseUrl: string
  /** The control plane: `http://127.0.0.1:<port>/_emulator`. */
  controlUrl: string
  /** The admin token the control plane requires, if any. */
  adminToken?: string
}

/** The key under which the global setup provides the connection (`inject('presentationEmulator')`). */
export const PROVIDE_KEY = 'presentationEmulator'

/**
 * The connection `presentation-emulator exec` hands its command in the
 * environment (`PRESENTATION_EMULATOR_URL`, `…_CONTROL_URL`, `…_ADMIN_TOKEN`),
 * or undefined outside `exec`.
 */
export function connectionFromEnv(env: Record<string, string | undefined> = process.env): EmulatorConnection | undefined {
  const baseUrl = env.PRESENTATION_EMULATOR_URL
  if (baseUrl === undefined || baseUrl === '') return undefined
  const controlUrl = env.PRESENTATION_EMULATOR_CONTROL_URL || `${new URL(baseUrl).origin}/_emulator`
  const adminToken = env.PRESENTATION_EMULATOR_ADMIN_TOKEN || undefined
  return adminToken === undefined ? { baseUrl, controlUrl } : { baseUrl, controlUrl, adminToken }
}

/**
 * Calls a control-plane route over HTTP and answers its JSON; a failure
 * throws the same `ServiceError` the in-process `control` would.
 */
export async function callControl<T>(connection: EmulatorConnection, method: string, path: string, body?: unknown): Promise<T> {
  const headers: Record<string, string> = {}
  if (connection.adminToken !== undefined) headers.authorization = `Bearer ${connection.adminToken}`
  if (body !== undefined) headers['content-type'] = 'application/json'
  const response = await fetch(`${connection.controlUrl}${path}`, {
    method,
    headers,
    body: body === undefined ? undefined : JSON.stringify(body),
  })
  const text = await response.text()
  let json: unknown
  try {
    json = text === '' ? undefined : JSON.parse(text)
  } catch {
    json = undefined
  }
  if (!response.ok) {
    const error = json as { error?: string; hint?: string } | undefined
    throw new ServiceError(
      response.status,
      response.headers.get('x-service-error-code') ?? `HTTP_${response.status}`,
      error?.error ?? `${method} ${path} answered ${response.status}`,
      error?.hint,
    )
  }
  return json as T
}
