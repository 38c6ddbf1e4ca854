import { afterEach, describe, expect, it, vi } from 'vitest'
import { eventStream, eventStreamResponse, HEARTBEAT_MS, sseComment, sseEvent, type EventSink } from './server-sent-events.js'

/** A stream whose producer the test drives, and whether its cleanup ran. */
function driven(options?: { heartbeatMs?: number }) {
  let sink: EventSink | undefined
  let cleanups = 0
  const stream = eventStream((s) => {
    sink = s
    return () => {
      cleanups += 1
    }
  }, options)
  const iterator = stream[Symbol.asyncIterator]()
  return { iterator, sink: () => sink!, cleanups: () => cleanups }
}

afterEach(() => {
  vi.useRealTimers()
})

describe('sseEvent', () => {
  it('frames one event with its name and one data line per line, ending with a blank line', () => {
    expect(sseEvent('{"a":1}', 'state')).toBe('event: state\ndata: {"a":1}\n\n')
    expect(sseEvent('one\ntwo\r\nthree')).toBe('data: one\ndata: two\ndata: three\n\n')
  })

  it('keeps a newline in an event name from starting a field of its own', () => {
    expect(sseEvent('x', 'a\ndata: injected')).toBe('event: adata: injected\ndata: x\n\n')
    expect(sseComment('a\nb')).toBe(': a b\n\n')
  })
})

describe('eventStream', () => {
  it('starts with the reconnection delay, then yields what the producer sends, in order', async () => {
    const { iterator, sink } = driven()
    expect((await iterator.next()).value).toBe('retry: 1000\n\n')
    sink().send('1', 'state')
    sink().send('2', 'state')
    expect((await iterator.next()).value).toBe('event: state\ndata: 1\n\n')
    expect((await iterator.next()).value).toBe('event: state\ndata: 2\n\n')
    await iterator.return!()
  })

  it('releases the producer when the client goes away, even while a read is waiting', async () => {
    const { iterator, cleanups, sink } = driven()
    await iterator.next()
    const pending = iterator.next()
    expect(cleanups()).toBe(0)
    await iterator.return!()
    expect(cleanups()).toBe(1)
    expect(await pending).toEqual({ value: undefined, done: true })
    // Nothing the producer sends afterwards is kept, and the cleanup never runs twice.
    sink().send('late')
    expect(sink().closed).toBe(true)
    expect(await iterator.next()).toEqual({ value: undefined, done: true })
    await iterator.return!()
    expect(cleanups()).toBe(1)
  })

  it('ends when the producer ends it, after what was already sent', async () => {
    const { iterator, cleanups, sink } = driven()
    sink().send('last')
    sink().end()
    expect(cleanups()).toBe(1)
    expect((await iterator.next()).value).toBe('retry: 1000\n\n')
    expect((await iterator.next()).value).toBe('data: last\n\n')
    expect((await iterator.next()).done).toBe(true)
  })

  it('sends a heartbeat comment every 15 seconds, and stops it with the stream', async () => {
    vi.useFakeTimers()
    expect(HEARTBEAT_MS).toBeLessThanOrEqual(15_000)
    const { iterator } = driven()
    await iterator.next()
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect((await iterator.next()).value).toBe(': heartbeat\n\n')
    vi.advanceTimersByTime(HEARTBEAT_MS)
    expect((await iterator.next()).value).toBe(': heartbeat\n\n')
    await iterator.return!()
    expect(vi.getTimerCount()).toBe(0)
  })

  it('ends a stream whose client stopped reading, instead of queueing without bound', async () => {
    const { iterator, sink, cleanups } = driven()
    for (let i = 0; i < 1000 && !sink().closed; i++) sink().send(String(i))
    expect(sink().closed).toBe(true)
    expect(cleanups()).toBe(1)
    let chunks = 0
    while (!(await iterator.next()).done) chunks += 1
    expect(chunks).toBeLessThan(300)
  })

  it('ends a stream whose client has read nothing for two heartbeats, and keeps one whose client reads', async () => {
    vi.useFakeTimers()
    const reading = driven()
    const idle = driven()
    for (let beat = 0; beat < 4; beat++) {
      while (reading.iterator !== undefined) {
        const next = await Promise.race([reading.iterator.next(), Promise.resolve('empty' as const)])
        if (next === 'empty') break
      }
      vi.advanceTimersByTime(HEARTBEAT_MS)
    }
    expect(reading.sink().closed).toBe(false)
    expect(idle.sink().closed).toBe(true)
    expect(idle.cleanups()).toBe(1)
    await reading.iterator.return!()
  })

  it('runs a cleanup at once when the producer ends the stream while starting', async () => {
    let cleaned = false
    const iterator = eventStream((sink) => {
      sink.end()
      return () => {
        cleaned = true
      }
    })[Symbol.asyncIterator]()
    expect(cleaned).toBe(true)
    expect((await iterator.next()).value).toBe('retry: 1000\n\n')
    expect((await iterator.next()).done).toBe(true)
  })
})

describe('eventStreamResponse', () => {
  it('is a 200 text/event-stream that is never cached, with no body but the stream', () => {
    const response = eventStreamResponse(() => () => undefined)
    expect(response.status).toBe(200)
    expect(response.headers['content-type']).toBe('text/event-stream; charset=utf-8')
    expect(response.headers['cache-control']).toBe('no-store')
    expect(response.body).toBeNull()
    expect(response.stream).toBeDefined()
  })
})
