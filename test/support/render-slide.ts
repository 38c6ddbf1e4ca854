/**
 * Renders a slide's component to static HTML in the test process, the way
 * the rendering environment runs it: `slide.tsx` transpiled by sucrase
 * (TypeScript, automatic JSX runtime), with `react`, `react/jsx-runtime`
 * and the slide's own two JSON files as its only imports, and the `default`
 * of each control as props. For the emulator's OWN generated components
 * only (trusted code): untrusted slide code runs only in the browser
 * sandbox, never in a Node process.
 */
import * as React from 'react'
import * as jsxRuntime from 'react/jsx-runtime'
import { renderToStaticMarkup } from 'react-dom/server'
import { transform } from 'sucrase'
import type { SlideFiles } from '../../src/schemas/index.js'

const transpiled = new Map<string, string>()

/** `slide.tsx` as CommonJS, once per distinct source. */
function transpile(source: string): string {
  let code = transpiled.get(source)
  if (code === undefined) {
    code = transform(source, {
      transforms: ['typescript', 'jsx', 'imports'],
      jsxRuntime: 'automatic',
      production: true,
      filePath: 'slide.tsx',
    }).code
    transpiled.set(source, code)
  }
  return code
}

/** The props a component gets: `{[control.id]: control.default}` for each control of the file. */
export function controlProps(controlsFile: string): Record<string, unknown> {
  const parsed = JSON.parse(controlsFile) as { controls?: Array<{ id: string; default?: unknown }> }
  return Object.fromEntries((parsed.controls ?? []).map((control) => [control.id, control.default]))
}

/**
 * The markup of a slide's component. Throws what the component throws, and
 * fails on anything React reports through `console.error` while rendering
 * (a missing key, an invalid prop): a slide "renders without error" only if
 * React says nothing.
 */
export function renderSlide(files: SlideFiles, props: Record<string, unknown> = controlProps(files['slide.controls.json'])): string {
  const modules: Record<string, unknown> = {
    react: React,
    'react/jsx-runtime': jsxRuntime,
    './slide.content.json': JSON.parse(files['slide.content.json']),
    './slide.controls.json': JSON.parse(files['slide.controls.json']),
  }
  const require = (name: string) => {
    if (!(name in modules)) throw new Error(`slide.tsx imports "${name}", which the rendering environment does not provide`)
    return modules[name]
  }
  const module = { exports: {} as { default?: unknown } }
  new Function('require', 'module', 'exports', transpile(files['slide.tsx']))(require, module, module.exports)
  const component = module.exports.default
  if (typeof component !== 'function') throw new Error('slide.tsx has no default export that is a component')
  const reported: unknown[][] = []
  const consoleError = console.error
  console.error = (...args: unknown[]) => reported.push(args)
  try {
    const html = renderToStaticMarkup(React.createElement(component as React.FunctionComponent, props))
    if (reported.length > 0) throw new Error(`React reported: ${reported.map((args) => args.map(String).join(' ')).join('\n')}`)
    return html
  } finally {
    console.error = consoleError
  }
}
