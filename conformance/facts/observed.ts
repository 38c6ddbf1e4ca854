/**
 * An exchange as the table of facts reads it: plain data a passive observer
 * can build from anything that saw the request and the response (the kit's
 * own client, a proxy, a HAR file). Nothing here sends a request.
 */
import { OPERATION_IDS, routes, type OperationId } from '../../src/client/index.js'
import type { Exchange } from '../types.js'

export interface Observed {
  /** The operation the method and path name, or undefined for a path the spec does not have. */
  operationId: OperationId | undefined
  /** The path relative to the base URL (`/projects/x/config`), or undefined outside it. */
  path: string | undefined
  /** Path parameters, decoded: `slug`, `slideId`, `jobId`. */
  params: Record<string, string>
  /** Query parameters (the last value of each name). */
  query: Record<string, string>
  method: string
  /** The `Authorization` header as sent, or undefined when none was. */
  authorization: string | undefined
  /** The bearer token, or null when the request carried none (another scheme included). */
  key: string | null
  /** The request body parsed as JSON, or undefined. */
  body: unknown
  status: number
  /** Response headers, names in lower case. */
  headers: Record<string, string>
  /** The response body parsed as JSON, or undefined. */
  json: unknown
  text: string
}

interface CompiledRoute {
  id: OperationId
  method: string
  pattern: RegExp
  names: string[]
  /** Literal segments count more: `/projects/templates` wins over `/projects/{slug}`. */
  params: number
}

const COMPILED: CompiledRoute[] = OPERATION_IDS.map((id) => {
  const route = routes[id]
  const names: string[] = []
  const source = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\{(\w+)\}/g, (_, name: string) => {
    names.push(name)
    return '([^/]+)'
  })
  return { id, method: route.method, pattern: new RegExp(`^${source}/?$`), names, params: names.length }
}).sort((a, b) => a.params - b.params)

/** The operation a method and a path (relative to the base URL, without its query) name. */
export function matchOperation(method: string, path: string): { operationId: OperationId; params: Record<string, string> } | undefined {
  const upper = method.toUpperCase()
  for (const route of COMPILED) {
    if (route.method !== upper) continue
    const match = route.pattern.exec(path)
    if (match === null) continue
    const params: Record<string, string> = {}
    route.names.forEach((name, i) => {
      try {
        params[name] = decodeURIComponent(match[i + 1]!)
      } catch {
        params[name] = match[i + 1]!
      }
    })
    return { operationId: route.id, params }
  }
  return undefined
}

function parse(text: string | undefined): unknown {
  if (text === undefined || text === '') return undefined
  try {
    return JSON.parse(text)
  } catch {
    return undefined
  }
}

/** The bearer token of an `Authorization` header, or null. */
export function bearerOf(authorization: string | undefined): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '')
  return match?.[1] ?? null
}

/** What a recorded request and response say, as the facts read them. */
export interface Recorded {
  method: string
  /** The absolute URL of the request. */
  url: string
  requestHeaders: Record<string, string>
  requestBody: string | undefined
  status: number
  responseHeaders: Record<string, string>
  responseBody: string
}

/**
 * An observed exchange from a recorded one, relative to the API's base URL
 * (`https://host/v1`). A path outside the base URL names no operation.
 */
export function observe(recorded: Recorded, baseUrl: string): Observed {
  const url = new URL(recorded.url)
  const basePath = new URL(baseUrl).pathname.replace(/\/+$/, '')
  const path = url.pathname.startsWith(`${basePath}/`) ? url.pathname.slice(basePath.length) : undefined
  const matched = path === undefined ? undefined : matchOperation(recorded.method, path)
  const query: Record<string, string> = {}
  url.searchParams.forEach((value, name) => {
    query[name] = value
  })
  const lower = (headers: Record<string, string>) => Object.fromEntries(Object.entries(headers).map(([k, v]) => [k.toLowerCase(), v]))
  const requestHeaders = lower(recorded.requestHeaders)
  const authorization = requestHeaders.authorization
  return {
    operationId: matched?.operationId,
    path,
    params: matched?.params ?? {},
    query,
    method: recorded.method.toUpperCase(),
    authorization,
    key: bearerOf(authorization),
    body: parse(recorded.requestBody),
    status: recorded.status,
    headers: lower(recorded.responseHeaders),
    json: parse(recorded.responseBody),
    text: recorded.responseBody,
  }
}

/** An observed exchange from one the kit made. */
export function observedFrom(exchange: Exchange, baseUrl: string): Observed {
  return observe(
    {
      method: exchange.request.method,
      url: exchange.request.url,
      requestHeaders: exchange.request.headers,
      requestBody: exchange.request.body,
      status: exchange.status,
      responseHeaders: exchange.headers,
      responseBody: exchange.text,
    },
    baseUrl,
  )
}
