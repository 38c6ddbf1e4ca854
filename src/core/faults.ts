import { defaultErrorCode, ServiceError } from './errors.js'

/** A fault as the control plane describes it. */
export interface FaultSpec {
  /** The operation to break, or `*` for every operation. */
  operationId: string
  /** Status to answer; absent: only delay, then run the operation normally. */
  status?: number
  /** How many matching calls to affect; 0 = until removed. Default 1. */
  times?: number
  /** The `error` text of the body; defaults to the status's usual message. */
  error?: string
  /** `X-Service-Error-Code`; defaults to the code of the status. */
  code?: string
  /** Real milliseconds to wait before answering. */
  delayMs?: number
  /** Only calls made with this API key (its value `pres_…`, or its key id). */
  apiKey?: string
  /** `Retry-After` seconds sent with the error (needs a status); default: none, except a 429's usual one. */
  retryAfter?: number
}

/** A registered fault and how often it has fired. */
export interface Fault {
  id: string
  operationId: string
  status: number | null
  times: number
  remaining: number | null
  error: string | null
  code: string | null
  delayMs: number
  apiKey: string | null
  retryAfter: number | null
  hits: number
}

const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid request',
  401: 'Authentication required',
  402: 'Insufficient credits',
  404: 'Not found',
  405: 'Method not allowed',
  413: 'Request body too large',
  429: 'Rate limit exceeded',
  500: 'Internal server error',
  502: 'Generation could not be dispatched',
  503: 'Service unavailable',
  504: 'Gateway timeout',
}

/** What a matching fault does to a call. */
export interface FaultEffect {
  faultId: string
  delayMs: number
  /** The error to answer, or undefined for a delay-only fault. */
  error: ServiceError | undefined
  /** `Retry-After` seconds to send with the error, when the fault sets them. */
  retryAfter: number | undefined
}

/**
 * Injected faults, checked in registration order after a request is
 * authenticated, counted and routed, and before it is validated or runs: a
 * fault never changes state.
 */
export class Faults {
  #faults: Fault[] = []
  #sequence = 0

  add(spec: FaultSpec): Fault {
    this.#sequence += 1
    const times = spec.times ?? 1
    const fault: Fault = {
      id: `flt_${this.#sequence}`,
      operationId: spec.operationId,
      status: spec.status ?? null,
      times,
      remaining: times === 0 ? null : times,
      error: spec.error ?? null,
      code: spec.code ?? null,
      delayMs: spec.delayMs ?? 0,
      apiKey: spec.apiKey ?? null,
      retryAfter: spec.retryAfter ?? null,
      hits: 0,
    }
    this.#faults.push(fault)
    return fault
  }

  list(): Fault[] {
    return this.#faults.map((fault) => ({ ...fault }))
  }

  remove(id: string): boolean {
    const before = this.#faults.length
    this.#faults = this.#faults.filter((fault) => fault.id !== id)
    return this.#faults.length !== before
  }

  clear(): void {
    this.#faults = []
  }

  /** Finds the first fault for this call, counts it, and says what it does. */
  take(operationId: string, key: { value: string; id: string }): FaultEffect | undefined {
    const fault = this.#faults.find(
      (f) =>
        (f.operationId === '*' || f.operationId === operationId) && (f.apiKey === null || f.apiKey === key.value || f.apiKey === key.id),
    )
    if (fault === undefined) return undefined
    fault.hits += 1
    if (fault.remaining !== null) {
      fault.remaining -= 1
      if (fault.remaining === 0) this.remove(fault.id)
    }
    const error =
      fault.status === null
        ? undefined
        : new ServiceError(
            fault.status,
            fault.code ?? defaultErrorCode(fault.status),
            fault.error ?? DEFAULT_MESSAGES[fault.status] ?? `HTTP ${fault.status}`,
            `injected by fault ${fault.id}`,
          )
    return { faultId: fault.id, delayMs: fault.delayMs, error, retryAfter: fault.retryAfter ?? undefined }
  }
}
