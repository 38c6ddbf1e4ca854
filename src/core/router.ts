import { addRoute, createRouter, findRoute } from 'rou3'

/** The outcome of matching a request to the route table. */
export type RouteMatch<T> =
  | { kind: 'route'; data: T; params: Record<string, string> }
  | { kind: 'wrong-method'; allow: string[] }
  | { kind: 'none' }

const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const

/**
 * One route table, matched by rou3's radix tree (static segments beat
 * parameters, so `/projects/templates` is not read as a slug). Paths use
 * the spec's `{param}` placeholders.
 */
export class RouteTable<T> {
  readonly #router = createRouter<T>()

  add(method: string, path: string, data: T): this {
    addRoute(this.#router, method, path.replace(/\{(\w+)\}/g, ':$1'), data)
    return this
  }

  /**
   * Matches a percent-encoded path; a known path with another method reports
   * the allowed ones. HEAD matches the GET route of a path (RFC 9110 §9.3.2:
   * HEAD is answered wherever GET is), so `Allow` lists HEAD beside GET.
   */
  match(method: string, path: string): RouteMatch<T> {
    const found = findRoute(this.#router, method === 'HEAD' ? 'GET' : method, path)
    if (found !== undefined) return { kind: 'route', data: found.data, params: found.params ?? {} }
    const allow: string[] = METHODS.filter((m) => findRoute(this.#router, m, path, { params: false }) !== undefined)
    if (allow.includes('GET')) allow.splice(allow.indexOf('GET') + 1, 0, 'HEAD')
    return allow.length > 0 ? { kind: 'wrong-method', allow } : { kind: 'none' }
  }
}
