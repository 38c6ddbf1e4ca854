import { describe, expect, it } from 'vitest'
import { imageSource, renderSlide, type ImagePolicy, type SlideContext } from './html.js'
import { deckTheme } from './theme.js'

const OFFLINE: ImagePolicy = { allowRemote: false, origin: 'http://127.0.0.1:4010' }
const ONLINE: ImagePolicy = { allowRemote: true, origin: 'http://127.0.0.1:4010' }
const PNG = 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg=='

function context(images = OFFLINE): SlideContext {
  return {
    theme: deckTheme({
      theme: { fontFamily: 'Inter', radius: '0.5rem', colors: { default: { background: '#ffffff', primary: '#1d4ed8' } as never } },
    }),
    images,
    accentClass: (color) => `accent-${color.slice(1)}`,
  }
}

function slide(content: unknown, controls: unknown = { controls: [] }, images = OFFLINE): string {
  return renderSlide(
    {
      'slide.tsx': 'export default function S() { return null }',
      'slide.content.json': typeof content === 'string' ? content : JSON.stringify(content),
      'slide.controls.json': JSON.stringify(controls),
    },
    context(images),
  )
}

describe('image blocks', () => {
  it('render a data: image and a same-origin path as <img> with the alt text', () => {
    const html = slide({ title: 'Pic', blocks: [{ type: 'image', url: PNG, alt: 'A pixel' }] })
    expect(html).toContain(`<img src="${PNG}" alt="A pixel"`)
    expect(slide({ title: '', blocks: [{ type: 'image', url: '/logo.png', alt: 'Logo' }] })).toContain('<img src="/logo.png" alt="Logo"')
  })

  it('render a remote image as a labelled placeholder with its alt text while offline, and never load it', () => {
    const html = slide({
      title: 'Team',
      blocks: [{ type: 'image', url: 'https://images.example.com/team.jpg', alt: 'The team <b>on stage</b>' }],
    })
    expect(html).not.toContain('<img')
    expect(html).not.toContain('team.jpg')
    expect(html).toContain('data-testid="image-placeholder"')
    expect(html).toContain('aria-label="Image: The team &lt;b&gt;on stage&lt;/b&gt;"')
    expect(html).toContain('<span class="placeholder-alt">The team &lt;b&gt;on stage&lt;/b&gt;</span>')
    expect(html).toContain('--allow-remote-images')
    expect(html).toContain('images.example.com')
  })

  it('load a remote image when remote images are allowed', () => {
    const html = slide(
      { title: '', blocks: [{ type: 'image', url: 'https://images.example.com/team.jpg', alt: 'Team' }] },
      undefined,
      ONLINE,
    )
    expect(html).toContain('<img src="https://images.example.com/team.jpg" alt="Team"')
    expect(html).toContain('referrerpolicy="no-referrer"')
  })

  it('never load a script URL or a relative one, whatever the setting', () => {
    for (const url of [
      'javascript:alert(1)',
      'JaVaScRiPt:alert(1)',
      'data:text/html,<script>alert(1)</script>',
      'file:///etc/passwd',
      'images/a.png',
      '//evil.example/x.png',
    ]) {
      expect(imageSource(url, ONLINE).load, url).toBe(false)
      expect(slide({ title: '', blocks: [{ type: 'image', url, alt: 'x' }] }, undefined, ONLINE)).not.toContain('<img')
    }
  })

  it('never load an image from the emulator’s API or control plane (only its assets), relative or absolute, whatever the setting', () => {
    for (const images of [OFFLINE, ONLINE]) {
      for (const url of [
        '/v1/projects',
        '/_emulator/state',
        'http://127.0.0.1:4010/_emulator/requests',
        'http://127.0.0.1:4010/v1',
        '/_emulator',
      ]) {
        expect(imageSource(url, images)).toEqual({
          load: false,
          reason: expect.stringMatching(/never come from the emulator's API or control plane/),
        })
      }
      expect(imageSource('/_emulator/assets/favicon.svg', images)).toEqual({ load: true })
      expect(imageSource('http://127.0.0.1:4010/images/logo.png', images)).toEqual({ load: true })
    }
  })

  it('judge a path by what the browser’s URL parser makes of it: one that starts like a path but names another host never loads', () => {
    for (const images of [OFFLINE, ONLINE]) {
      for (const url of [
        '/\\evil.example/x.png',
        '\\\\evil.example/x.png',
        '\\/evil.example/x.png',
        '/\t/evil.example/x.png',
        '/\n/evil.example/x.png',
        ' /\\evil.example/x.png',
        '//evil.example/x.png',
      ]) {
        expect(imageSource(url, images), JSON.stringify(url)).toEqual({ load: false, reason: expect.stringMatching(/not absolute/) })
        expect(slide({ title: '', blocks: [{ type: 'image', url, alt: 'x' }] }, undefined, images)).not.toContain('<img')
      }
      // An encoded backslash is a path of the emulator's own, as the browser reads it.
      expect(imageSource('/%5Cevil.example/x.png', images)).toEqual({ load: true })
      // The API and the control plane under the machine's other names are the emulator's too.
      for (const url of ['http://localhost:4010/v1/projects', 'http://[::1]:4010/_emulator/state', 'http://127.1:4010/v1']) {
        expect(imageSource(url, images)).toEqual({ load: false, reason: expect.stringMatching(/API or control plane/) })
      }
    }
    expect(imageSource('http:\\\\images.example.com/a.png', ONLINE)).toEqual({ load: true })
    expect(imageSource('http:\\\\images.example.com/a.png', OFFLINE)).toMatchObject({ load: false, host: 'images.example.com' })
  })

  it('an image block without url or alt is named as such, not dropped silently', () => {
    expect(slide({ title: '', blocks: [{ type: 'image', alt: 'No url' }] })).toMatch(
      /class="block-notice">The image block 1 is not shown: url: /,
    )
  })
})

describe('renderSlide', () => {
  it('renders every block type of the conventions, escaped', () => {
    const html = slide({
      title: 'All <blocks>',
      blocks: [
        { type: 'heading', text: 'H & h' },
        { type: 'text', text: '<script>alert(1)</script>' },
        { type: 'bullets', items: ['One', 'Two'] },
        { type: 'quote', text: 'Q', author: 'A' },
        { type: 'stat', value: '42%', label: 'L' },
        { type: 'image', url: PNG, alt: 'I' },
      ],
    })
    expect(html).toContain('<h1>All &lt;blocks&gt;</h1>')
    expect(html).toContain('<h2>H &amp; h</h2>')
    expect(html).toContain('<p>&lt;script&gt;alert(1)&lt;/script&gt;</p>')
    expect(html).toContain('<li>One</li><li>Two</li>')
    expect(html).toContain('<blockquote><p>Q</p><cite>A</cite></blockquote>')
    expect(html).toContain('<figure class="stat"><strong>42%</strong><figcaption>L</figcaption></figure>')
    expect(html).toContain('<img src="data:image/png')
    expect(html).not.toContain('<script>')
  })

  it('applies the align control and picks a layout from the content', () => {
    expect(slide({ title: 'T', blocks: [{ type: 'text', text: 'sub' }] }, { controls: [{ id: 'align', default: 'center' }] })).toMatch(
      /^<div class="slide layout-title align-center">/,
    )
    expect(slide({ title: 'T', blocks: [{ type: 'text', text: 'x' }] }, { controls: [{ id: 'align', default: 'right' }] })).toContain(
      'align-right',
    )
    expect(slide({ title: 'T', blocks: [] }, { controls: [{ id: 'align', default: 'sideways' }] })).toContain('align-left')
    expect(slide({ title: 'Q', blocks: [{ type: 'quote', text: 'q', author: 'a' }] })).toContain('layout-quote')
    expect(slide({ title: 'S', blocks: [1, 2].map(() => ({ type: 'stat', value: '1', label: 'l' })) })).toContain('layout-stats')
    const columns = slide({
      title: 'C',
      blocks: [
        { type: 'heading', text: 'a' },
        { type: 'text', text: '1' },
        { type: 'heading', text: 'b' },
        { type: 'text', text: '2' },
      ],
    })
    expect(columns).toContain('layout-columns')
    expect(columns.match(/<section class="column">/g)).toHaveLength(2)
    expect(
      slide({
        title: 'M',
        blocks: [
          { type: 'text', text: 't' },
          { type: 'image', url: PNG, alt: 'i' },
        ],
      }),
    ).toContain('layout-media')
  })

  it('applies an accent control other than the theme’s primary as a class', () => {
    expect(slide({ title: 'T', blocks: [] }, { controls: [{ id: 'accent', default: 'var(--primary)' }] })).not.toContain('accent-')
    expect(slide({ title: 'T', blocks: [] }, { controls: [{ id: 'accent', default: '#047857' }] })).toContain('accent-047857')
  })

  it('names a block of an unknown type or without a type, and shows an unknown type’s text', () => {
    expect(slide({ title: '', blocks: [{ type: 'chart', data: [1] }] })).toContain(
      'Block type &quot;chart&quot; is not rendered by the emulator.',
    )
    expect(slide({ title: '', blocks: [{ text: 'orphan' }] })).toContain('Block 1 has no &quot;type&quot;')
    expect(slide({ title: '', blocks: [{ type: 'callout', text: 'Shown' }] })).toContain('<p>Shown</p>')
  })

  it('shows a file that is not the convention as its text, and content deeper than the write bound as a notice (any depth is safe)', () => {
    expect(slide('not json')).toContain('<pre class="raw">not json</pre>')
    const shallow = slide(`{"title":"Deep","blocks":[{"type":"bullets","items":[${'['.repeat(20)}${']'.repeat(20)}]}]}`)
    expect(shallow).toContain('The bullets block 1 is not shown: items.0: must be a string, got an array.')
    const objects = slide(`{"title":"Deep","blocks":[${'{"a":'.repeat(20)}1${'}'.repeat(20)}]}`)
    expect(objects).toContain('Block 1 has no &quot;type&quot;')
    // Writes refuse more than 64 levels; whatever is stored anyway (an old state file) renders as a notice.
    for (const deep of [
      `${'['.repeat(50_000)}${']'.repeat(50_000)}`,
      `{"title":"Deep","blocks":[${'{"a":'.repeat(5000)}1${'}'.repeat(5000)}]}`,
    ]) {
      const html = slide(deep)
      expect(html).toContain('nested deeper than 64 levels and is not shown')
      expect(html.length).toBeLessThan(25_000)
    }
  })

  it('keeps a slide small whatever the file holds', () => {
    const html = slide({ title: 'Many', blocks: Array.from({ length: 500 }, (_, i) => ({ type: 'text', text: `b${i}` })) })
    expect(html.match(/<p>b\d+<\/p>/g)).toHaveLength(60)
    expect(html).toContain('440 more blocks are not shown.')
  })

  it('says an empty slide is empty', () => {
    expect(slide({ title: '', blocks: [] })).toContain('Empty slide')
  })
})
