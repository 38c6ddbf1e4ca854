import { describe, expect, it } from 'vitest'
import { slideFiles } from '../../src/content/deck.js'
import { readControls, slideRenderData } from './slide-render.js'
import { SlideTranspiler } from './transpile.js'

const ORIGIN = 'http://127.0.0.1:4010'
const OFFLINE = { allowRemote: false, origin: ORIGIN }
const controls = (list: unknown[]) => JSON.stringify({ controls: list })

describe('readControls', () => {
  it('gives each control’s default as a prop by its id, and a panel field with its type, label and options', () => {
    const read = readControls(
      controls([
        { id: 'accent', type: 'color', label: 'Accent colour', default: '#ff0000' },
        { id: 'align', type: 'select', label: 'Alignment', options: ['left', { label: 'Centre', value: 'center' }], default: 'left' },
        { id: 'size', type: 'number', default: 3, min: 1, max: 9, step: 1 },
        { id: 'shadow', type: 'toggle', label: 'Shadow', default: false },
        { id: 'mystery', type: 'gradient', label: 'Gradient', default: { from: 'a' } },
        { id: 'plain' },
      ]),
    )
    expect(read.props).toEqual({ accent: '#ff0000', align: 'left', size: 3, shadow: false, mystery: { from: 'a' }, plain: undefined })
    expect(read.notes).toEqual([])
    expect(read.fields.map((field) => [field.id, field.type, field.label])).toEqual([
      ['accent', 'color', 'Accent colour'],
      ['align', 'select', 'Alignment'],
      ['size', 'number', 'size'],
      ['shadow', 'toggle', 'Shadow'],
      ['mystery', 'gradient', 'Gradient'],
      ['plain', 'text', 'plain'],
    ])
    expect(read.fields[1]!.options).toEqual([
      { label: 'left', value: 'left' },
      { label: 'Centre', value: 'center' },
    ])
    expect(read.fields[2]).toMatchObject({ min: 1, max: 9, step: 1 })
  })

  it.each([['__proto__'], ['constructor'], ['key'], ['ref']])('refuses the id %s with a note, and the other props still work', (id) => {
    const read = readControls(`{"controls":[{"id":${JSON.stringify(id)},"default":1},{"id":"title","default":"Hi"}]}`)
    expect(read.props).toEqual({ title: 'Hi' })
    expect(Object.getPrototypeOf(read.props)).toBe(Object.prototype)
    expect(read.notes).toEqual([expect.stringContaining(`Control 1 has the id "${id}", which cannot be a prop`)])
    expect(read.fields.map((field) => field.id)).toEqual(['title'])
  })

  it('keeps the first of duplicate ids and says which control repeats it', () => {
    const read = readControls(controls([{ id: 'a', default: 1 }, { id: 'b', default: 2 }, { id: 'a', default: 3 }, { default: 4 }, 'x']))
    expect(read.props).toEqual({ a: 1, b: 2 })
    expect(read.notes).toEqual([
      'Control 3 repeats the id "a" of control 1; only the first gives the prop.',
      'Control 4 has no "id" (a non-empty string), so it gives no prop.',
      'Control 5 has no "id" (a non-empty string), so it gives no prop.',
    ])
  })

  it.each([
    ['an array', '[]'],
    ['controls that is not an array', '{"controls": {"id": "a"}}'],
    ['a string', '"x"'],
  ])('gives no props, with a note, for a file of another shape: %s', (_, text) => {
    expect(readControls(text)).toEqual({ props: {}, fields: [], notes: [expect.stringMatching(/is not \{"controls".*no props/)] })
  })

  it('places a syntax error of a stored file (written around validation) at its line and column', () => {
    expect(readControls('{\n  "controls": [,]\n}').notes).toEqual([
      "slide.controls.json:2:16: Expected a JSON value, found ','. The component gets no props.",
    ])
  })
})

describe('slideRenderData', () => {
  it('hands the renderer the transpiled component, both files as text, the props and a key that changes with any file', () => {
    const transpiler = new SlideTranspiler()
    const files = slideFiles('title', { title: 'Hello', blocks: [] })
    const data = slideRenderData(files, transpiler, OFFLINE)
    expect(data.code).toContain('exports.default')
    expect(data.problem).toBeNull()
    expect(data.content).toBe(files['slide.content.json'])
    expect(data.controls).toBe(files['slide.controls.json'])
    // The props are the controls' defaults by id, as the generated controls file gives them.
    const controls = JSON.parse(files['slide.controls.json']) as { controls: Array<{ id: string; default: unknown }> }
    expect(data.props).toEqual(Object.fromEntries(controls.controls.map((control) => [control.id, control.default])))
    expect(Object.keys(data.props).length).toBeGreaterThan(0)
    expect(data.images).toEqual([])
    expect(slideRenderData(files, transpiler, OFFLINE).key).toBe(data.key)
    expect(slideRenderData({ ...files, 'slide.content.json': '{"title":"Other"}' }, transpiler, OFFLINE).key).not.toBe(data.key)
    expect(slideRenderData({ ...files, 'slide.controls.json': '{"controls":[]}' }, transpiler, OFFLINE).key).not.toBe(data.key)
    expect(transpiler.stats).toEqual({ transpiled: 1, cached: 3 })
  })

  it('says why a stored component cannot run, with its position, and sends no code', () => {
    const transpiler = new SlideTranspiler()
    const broken = slideRenderData(
      {
        'slide.tsx': 'export default function S() {\n  return <div>\n}',
        'slide.content.json': '{}',
        'slide.controls.json': '{"controls":[]}',
      },
      transpiler,
      OFFLINE,
    )
    expect(broken.code).toBeNull()
    expect(broken.problem).toMatchObject({ file: 'slide.tsx', line: 2, message: 'Unterminated JSX contents.' })
    const badContent = slideRenderData(
      { 'slide.tsx': 'export default () => null', 'slide.content.json': '{"title": }', 'slide.controls.json': '{"controls":[]}' },
      transpiler,
      OFFLINE,
    )
    expect(badContent.code).toBeNull()
    expect(badContent.problem).toEqual({ file: 'slide.content.json', line: 1, column: 11, message: "Expected a JSON value, found '}'" })
  })

  it('allows the images its content names: its own origin’s always, remote ones only with allowRemoteImages', () => {
    const files = {
      'slide.tsx': 'export default () => null',
      'slide.content.json': JSON.stringify({
        title: 'T',
        blocks: [
          { type: 'image', url: 'https://images.example.com/a.png?v=2', alt: '' },
          { type: 'image', url: '/_emulator/assets/favicon.svg', alt: '' },
          { type: 'image', url: '/v1/projects', alt: '' },
        ],
      }),
      'slide.controls.json': '{"controls":[]}',
    }
    expect(slideRenderData(files, new SlideTranspiler(), OFFLINE).images).toEqual(['/_emulator/assets/favicon.svg'])
    expect(slideRenderData(files, new SlideTranspiler(), { allowRemote: true, origin: ORIGIN }).images).toEqual([
      'https://images.example.com/a.png?v=2',
      '/_emulator/assets/favicon.svg',
    ])
  })
})
