import { describe, expect, it } from 'vitest'
import { deckTheme } from './theme.js'
import type { ProjectConfig } from '../../src/schemas/index.js'
import { generateConfig } from '../../src/content/config.js'
import { SLIDE_DESIGNS } from '../../src/content/designs.js'
import { createFaker } from '../../src/content/faker-en.js'
import { SLIDE_CLASS_NAMES, SLIDE_CSS_VARIABLES } from '../../src/content/rendering-guide.js'
import { SLIDE_BASE_CSS } from '../../src/content/slide-styles.js'

/** A config with every optional part the theme reads: a heading font, tokens of both kinds. */
function fullConfig(): ProjectConfig {
  const config = generateConfig(createFaker(1))
  return {
    ...config,
    theme: { ...config.theme!, headingFontFamily: 'Georgia' },
    tokens: {
      palette: [{ name: '--brand-blue', value: '#1d4ed8' }],
      fonts: [
        { name: '--font-heading', family: 'Inter' },
        { name: '--font-body', family: 'Source Sans 3' },
      ],
    },
  }
}

const classesOf = (text: string) => new Set(text.match(/\bslide(?:__|--)[a-z-]*[a-z]|\bslide\b(?![-_])/g) ?? [])

describe('SLIDE_BASE_CSS', () => {
  it('loads nothing: no URL, no @import, no font face, no remote host', () => {
    expect(SLIDE_BASE_CSS).not.toMatch(/url\(|@import|@font-face|https?:|\/\//)
  })

  it('reads only the theme’s variables (font tokens of the conventional names included) and --slide-accent, each with a fallback', () => {
    const provided = new Set([...deckTheme(fullConfig()).vars.keys(), '--slide-accent'])
    const uses = [...SLIDE_BASE_CSS.matchAll(/var\((--[a-z0-9-]+)(,?)/g)]
    expect(uses.length).toBeGreaterThan(40)
    for (const [use, name, comma] of uses) {
      expect(provided.has(name!), `${name} is not a theme variable`).toBe(true)
      expect(comma, `${use} has no fallback`).toBe(',')
    }
  })

  it('sizes type relative to the 16:9 slide box, not the page', () => {
    expect(SLIDE_BASE_CSS).toMatch(/\.slide\{[^}]*aspect-ratio:16\/9[^}]*container-type:inline-size/)
    expect(SLIDE_BASE_CSS).toMatch(/\.slide__inner\{[^}]*font-size:[\d.]+cqw/)
    // Every other size is relative (em, %, cqw), a fallback of a theme variable, a hairline border or a pill's radius.
    const outsideFallbacks = SLIDE_BASE_CSS.replace(/var\(--[a-z-]+,[^()]*\)/g, '')
    const lengths = outsideFallbacks.match(/\d*\.?\d+(?:px|rem|pt|vw|vh)\b/g) ?? []
    expect(lengths.filter((length) => length !== '1px' && length !== '999px')).toEqual([])
  })

  it('styles only class names SLIDE_CLASS_NAMES documents, and every documented one but the designs that need no rule of their own', () => {
    const styled = classesOf(SLIDE_BASE_CSS.replace(/\/\*[\s\S]*?\*\//g, ''))
    const documented = classesOf(SLIDE_CLASS_NAMES.map(({ name, description }) => `${name} ${description}`).join(' '))
    expect([...styled].filter((name) => !documented.has(name))).toEqual([])
    const designs = new Set(SLIDE_DESIGNS.map((design) => `slide--${design}`))
    expect([...documented].filter((name) => !styled.has(name) && !designs.has(name))).toEqual([])
  })
})

describe('SLIDE_CSS_VARIABLES', () => {
  it('names variables the pages define', () => {
    const vars = deckTheme(fullConfig()).vars
    const concrete = SLIDE_CSS_VARIABLES.map(({ name }) => name).filter((name) => /^--[a-z-]+$/.test(name) && name !== '--slide-accent')
    expect(concrete.length).toBeGreaterThan(10)
    for (const name of concrete) expect(vars.has(name), name).toBe(true)
    for (const name of ['--background', '--primary', '--brand-blue', '--font-heading']) expect(vars.has(name), name).toBe(true)
  })
})
