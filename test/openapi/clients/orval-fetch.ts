/**
 * orval's fetch client calls this for every request (`override.mutator` in
 * its config): it adds the base URL and the key, and answers the
 * `{ data, status, headers }` the generated functions declare.
 */
import type { Target } from './consumer'

let target: Target | undefined

/** Points the generated functions at an emulator. */
export function setTarget(next: Target): void {
  target = next
}

export const emulatorFetch = async <T>(url: string, init: RequestInit): Promise<T> => {
  if (target === undefined) throw new Error('call setTarget() first')
  const headers = new Headers(init.headers)
  headers.set('authorization', `Bearer ${target.apiKey}`)
  const response = await target.fetch(`${target.baseUrl}${url}`, { ...init, headers })
  const text = await response.text()
  return { data: text === '' ? undefined : JSON.parse(text), status: response.status, headers: response.headers } as T
}
