const ENCODER = new TextEncoder()

/**
 * A Fetch API `Response` whose body is a string the emulator already holds.
 *
 * Node's `Response` wraps every body in a web stream and reads it back
 * through that stream, which costs more than the emulator's whole answer to
 * a list. This one answers `text()`, `json()`, `arrayBuffer()`, `bytes()`
 * and `blob()` from the string, and builds a real stream only when one is
 * asked for (`body`, `formData()`); from then on every read goes through
 * that stream. It is a `Response` (`instanceof` holds), its status and
 * headers are the real ones, and a body reads once, as with any response.
 *
 * The class is defined on the first answer, not when the module loads:
 * reading the global `Response` loads Node's fetch implementation (undici),
 * a good part of the package's import time, which only `fetch` needs.
 */
export function bufferedResponse(text: string | null, init: ResponseInit): Response {
  BufferedResponse ??= defineBufferedResponse()
  return new BufferedResponse(text, init)
}

let BufferedResponse: (new (text: string | null, init: ResponseInit) => Response) | undefined

function defineBufferedResponse() {
  return class BufferedResponse extends Response {
    readonly #text: string | null
    #used = false
    /** The real response, once a stream was asked for. */
    #streamed: Response | undefined
    readonly #headerInit: HeadersInit | undefined
    #headers: Headers | undefined

    /** `init.headers` become a `Headers` when first read (many callers read only the body). */
    constructor(text: string | null, init: ResponseInit) {
      super(null, { status: init.status, statusText: init.statusText })
      this.#text = text
      this.#headerInit = init.headers
    }

    override get headers(): Headers {
      this.#headers ??= new Headers(this.#headerInit)
      return this.#headers
    }

    #streaming(): Response {
      this.#streamed ??= new Response(this.#used ? null : this.#text, {
        status: this.status,
        statusText: this.statusText,
        headers: this.headers,
      })
      return this.#streamed
    }

    #take(): string {
      if (this.#used) throw new TypeError('Body is unusable: Body has already been read')
      this.#used = true
      return this.#text ?? ''
    }

    override get body(): ReadableStream<Uint8Array<ArrayBuffer>> | null {
      return this.#text === null ? null : this.#streaming().body
    }

    override get bodyUsed(): boolean {
      return this.#streamed === undefined ? this.#used : this.#streamed.bodyUsed
    }

    override async text(): Promise<string> {
      return this.#streamed === undefined ? this.#take() : this.#streamed.text()
    }

    // biome-ignore lint/suspicious/noExplicitAny: the signature of Response.json()
    override async json(): Promise<any> {
      return this.#streamed === undefined ? JSON.parse(this.#take()) : this.#streamed.json()
    }

    override async arrayBuffer(): Promise<ArrayBuffer> {
      if (this.#streamed !== undefined) return this.#streamed.arrayBuffer()
      return ENCODER.encode(this.#take()).buffer as ArrayBuffer
    }

    override async bytes(): Promise<Uint8Array<ArrayBuffer>> {
      if (this.#streamed !== undefined) return new Uint8Array(await this.#streamed.arrayBuffer())
      return ENCODER.encode(this.#take()) as Uint8Array<ArrayBuffer>
    }

    override async blob(): Promise<Blob> {
      if (this.#streamed !== undefined) return this.#streamed.blob()
      return new Blob([this.#take()], { type: this.headers.get('content-type') ?? '' })
    }

    override async formData(): Promise<FormData> {
      return this.#streaming().formData()
    }

    override clone(): Response {
      if (this.bodyUsed) throw new TypeError('Response.clone: Body has already been consumed.')
      if (this.#streamed !== undefined) return this.#streamed.clone()
      return new BufferedResponse(this.#text, { status: this.status, statusText: this.statusText, headers: this.headers })
    }
  }
}
