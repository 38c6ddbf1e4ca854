/**
 * The transpiler over random compositions of TypeScript and JSX constructs:
 * a property of 400 runs, in the deep tier (test/tiers.ts) with the other
 * properties. The transpiler's examples are `transpile.test.ts`.
 */
import { parse } from '@babel/parser'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { checkSlideTsx } from '../../src/model/slide-validation.js'
import { transpileSlideTsx } from './transpile.js'

/** The transpiled code parses as the body of an async function, as the renderer runs it. */
function parsesAsRendered(code: string): void {
  expect(() => parse(`(async () => {\n${code}\n})`, { sourceType: 'script' })).not.toThrow()
}

describe('transpileSlideTsx, as a property', () => {
  it('transpiles every module Babel accepts, over random compositions of TypeScript and JSX constructs', () => {
    const statements = [
      'const a: number = 1;',
      'let b = <div className="x">{a}</div>;',
      'enum E { A, B }',
      'namespace N { export const c = 2 }',
      'declare const d: string;',
      'type T<X> = { x: X };',
      'interface I { y: number }',
      'import content from "./slide.content.json";',
      'import controls from "./slide.controls.json";',
      'import * as React from "react";',
      'import { useState } from "react";',
      'import type { FC } from "react";',
      'import { "title" as t } from "./slide.content.json";',
      'export const e = 3;',
      'export { a as "x y" };',
      'const f = <T,>(v: T): T => v;',
      'const g = <svg><use xlink:href="#i" /><svg:g /></svg>;',
      'const h = import.meta;',
      'const i = await Promise.resolve(1);',
      'class K { constructor(private p: number) {} #q = 1; static { } }',
      'function* gen() { yield 1 }',
      'const j = a satisfies number;',
      'label: for (;;) { break label }',
      // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal in slide source
      'const k = `t${a}`;',
      'const l = <>{[1, 2].map((n) => <p key={n}>{n}</p>)}</>;',
      'const m = (a as unknown as number)!;',
      'abstract class Z { abstract z(): void }',
      'const n = <div {...{ o: 1 }} data-x="y" aria-label={"z"} />;',
    ]
    const defaults = [
      'export default function Slide() { return <div /> }',
      'export default () => null;',
      'function S() { return <p /> }\nexport { S as "default" };',
      'export default class extends React.Component { render() { return <p /> } }',
    ]
    fc.assert(
      fc.property(fc.array(fc.constantFrom(...statements), { maxLength: 8 }), fc.constantFrom(...defaults), (chosen, last) => {
        const source = [...chosen, last].join('\n')
        if (checkSlideTsx(source) !== undefined) return
        const result = transpileSlideTsx(source)
        if (!result.ok) throw new Error(`${JSON.stringify(source)}: ${JSON.stringify(result.problem)}`)
        parsesAsRendered(result.code)
        expect(result.code.split('\n')).toHaveLength(source.split('\n').length)
      }),
      { seed: 20, numRuns: 400 },
    )
  })
})
