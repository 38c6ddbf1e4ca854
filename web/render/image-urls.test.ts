import { describe, expect, it } from 'vitest'
import { allowedImageUrls, frameMayLoad, MAX_IMAGE_QUERY_CHARS, readImageUrl, slideImages } from './image-urls.js'

const ORIGIN = 'http://127.0.0.1:4010'
const FRAME = `${ORIGIN}/_emulator/assets/render/slide.html?v=1`

describe('readImageUrl', () => {
  it('reads a URL as the browser’s parser does: what starts like a path but names another host is never the emulator’s', () => {
    // `\` is `/` in an http(s) URL, tabs and newlines vanish, leading spaces and controls are dropped: each
    // of these is `//evil.example/x.png`, whose scheme is the page's, so it is not an image at all.
    for (const raw of [
      '/\\evil.example/x.png',
      '\\\\evil.example/x.png',
      '\\/evil.example/x.png',
      '//evil.example/x.png',
      '/\t/evil.example/x.png',
      '/\n/evil.example/x.png',
      '/\r\n/evil.example/x.png',
      '\t//evil.example/x.png',
      ' \u0001//evil.example/x.png',
    ]) {
      expect(readImageUrl(raw, ORIGIN), JSON.stringify(raw)).toEqual({ kind: 'refused', why: 'relative' })
    }
    // With a scheme of its own, the same host is a remote image.
    for (const raw of [
      'http:\\\\evil.example/x.png',
      'HTTP://EVIL.example/x.png',
      'http:/\\evil.example/x.png#f',
      'ht\ttp://evil.example/x.png',
    ]) {
      expect(readImageUrl(raw, ORIGIN), JSON.stringify(raw)).toEqual({
        kind: 'remote',
        url: 'http://evil.example/x.png',
        host: 'evil.example',
      })
    }
  })

  it('keeps a path of the emulator’s own as its path and query, an encoded backslash included', () => {
    expect(readImageUrl('/%5Cevil.example/x.png', ORIGIN)).toEqual({ kind: 'own', path: '/%5Cevil.example/x.png' })
    expect(readImageUrl('/_emulator/assets/favicon.svg?v=2#top', ORIGIN)).toEqual({
      kind: 'own',
      path: '/_emulator/assets/favicon.svg?v=2',
    })
    expect(readImageUrl(`${ORIGIN}/images/logo.png`, ORIGIN)).toEqual({ kind: 'own', path: '/images/logo.png' })
    expect(readImageUrl('/a/../images/./logo.png', ORIGIN)).toEqual({ kind: 'own', path: '/images/logo.png' })
  })

  it('refuses the API and the control plane however they are written, and under the machine’s other names', () => {
    for (const raw of [
      '/v1/projects',
      '/v1',
      '/x/../v1/projects',
      '/x/%2e%2e/v1/projects',
      '/\tv1/projects',
      `${ORIGIN}/_emulator/requests`,
      '/_emulator',
      '/_emulator/assets/../state',
      'http://localhost:4010/v1/projects',
      'http://127.1:4010/_emulator/state',
      'http://2130706433:4010/v1/projects',
      'http://[::1]:4010/v1/projects',
      'http://app.localhost:4010/_emulator/requests',
    ]) {
      expect(readImageUrl(raw, ORIGIN), raw).toEqual({ kind: 'refused', why: 'api' })
    }
    // Another port of this machine is another server.
    expect(readImageUrl('http://localhost:9999/v1/x.png', ORIGIN).kind).toBe('remote')
  })

  it('refuses what means something else on each page, other schemes, credentials and folders', () => {
    // `http:x.png` too: on a page of the same scheme it is a path of that page's folder.
    for (const raw of ['x.png', 'images/a.png', '?q=1', '#f', '', '.', '..\\x.png', 'http:evil.example/x.png']) {
      expect(readImageUrl(raw, ORIGIN), raw).toEqual({ kind: 'refused', why: 'relative' })
    }
    expect(readImageUrl('javascript:alert(1)', ORIGIN)).toEqual({ kind: 'refused', why: 'scheme', scheme: 'javascript' })
    expect(readImageUrl('java\tscript:alert(1)', ORIGIN)).toEqual({ kind: 'refused', why: 'scheme', scheme: 'javascript' })
    expect(readImageUrl('https://u:p@images.example/x.png', ORIGIN)).toEqual({ kind: 'refused', why: 'credentials' })
    expect(readImageUrl('/', ORIGIN)).toEqual({ kind: 'refused', why: 'folder' })
    expect(readImageUrl('/editor/', ORIGIN)).toEqual({ kind: 'refused', why: 'folder' })
    expect(readImageUrl('http://[x', ORIGIN)).toEqual({ kind: 'refused', why: 'invalid' })
    expect(readImageUrl(' data:image/png;base64,AA', ORIGIN)).toEqual({ kind: 'data' })
  })
})

describe('slideImages', () => {
  it('lists the images the content’s strings name at any depth: its own origin’s as paths, remote ones only when allowed', () => {
    const content = {
      title: 'https://not-an-image.example/page?x=1',
      blocks: [
        { type: 'image', url: 'https://images.example.com/a.png?w=200&h=100#frag', alt: 'A' },
        { type: 'image', url: `${ORIGIN}/logo.png`, alt: 'B' },
        { type: 'image', url: 'data:image/png;base64,AAAA', alt: 'C' },
        { type: 'text', text: 'see https://inline.example/x.png in the text' },
        { nested: [['http://deep.example/d.jpg', '/\\tricky.example/t.png', 'http:\\\\scheme.example/s.png']] },
        { url: 'https://user:pass@creds.example/x.png' },
        { url: '/v1/projects?x' },
        { url: 'relative.png' },
      ],
    }
    expect(slideImages(content, ORIGIN, true)).toEqual([
      'https://not-an-image.example/page?x=1',
      'https://images.example.com/a.png?w=200&h=100',
      '/logo.png',
      'http://deep.example/d.jpg',
      'http://scheme.example/s.png',
    ])
    expect(slideImages(content, ORIGIN, false)).toEqual(['/logo.png'])
  })

  it('holds at most 24 images, none longer than 2,048 characters, all within the room of a frame’s address', () => {
    const many = Array.from({ length: 40 }, (_, n) => `/img/${n}.png`)
    expect(slideImages(many, ORIGIN, false)).toHaveLength(24)
    expect(slideImages([`/${'a'.repeat(2_100)}.png`], ORIGIN, false)).toEqual([])
    const long = Array.from({ length: 24 }, (_, n) => `/${n}/${'a'.repeat(1_900)}.png`)
    const kept = slideImages(long, ORIGIN, false)
    expect(kept).toEqual(long.slice(0, kept.length))
    expect(kept.reduce((sum, image) => sum + encodeURIComponent(image).length + 5, 0)).toBeLessThanOrEqual(MAX_IMAGE_QUERY_CHARS)
    expect(kept.length).toBeGreaterThan(3)
  })
})

describe('frameMayLoad', () => {
  const allowed = allowedImageUrls(
    ['/_emulator/assets/favicon.svg', 'https://images.example.com/a.png?w=1', '/v1/projects', 'x.png'],
    ORIGIN,
  )

  it('holds the list’s own paths on the frame’s origin and its remote URLs, never what the rules refuse', () => {
    expect([...allowed]).toEqual([`${ORIGIN}/_emulator/assets/favicon.svg`, 'https://images.example.com/a.png?w=1'])
  })

  it('allows data:, the listed images however the frame resolves them, and fragments only where asked', () => {
    for (const raw of [
      'data:image/png;base64,AA',
      '/_emulator/assets/favicon.svg',
      '../favicon.svg',
      '/_emulator/assets/favicon.svg#x',
      `${ORIGIN}/_emulator/assets/favicon.svg`,
      'https://IMAGES.example.com/a.png?w=1',
      '',
      '  ',
    ]) {
      expect(frameMayLoad(raw, FRAME, allowed, false), raw).toBe(true)
    }
    expect(frameMayLoad('#clip', FRAME, allowed, true)).toBe(true)
    expect(frameMayLoad(' #clip', FRAME, allowed, true)).toBe(true)
    for (const raw of [
      '#clip',
      '/_emulator/assets/favicon.svg?other',
      'https://images.example.com/a.png',
      'https://images.example.com/a.png?w=1&leak=1',
      '/v1/projects',
      '/\\images.example.com/a.png?w=1',
      'slide.html',
      'javascript:alert(1)',
      'blob:null/1',
      '/_emulator/assets/favicon.svg/',
    ]) {
      expect(frameMayLoad(raw, FRAME, allowed, false), raw).toBe(false)
    }
  })
})
