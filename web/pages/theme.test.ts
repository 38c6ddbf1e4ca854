import { describe, expect, it } from 'vitest'
import type { ProjectConfig } from '../../src/schemas/index.js'
import { contrastRatio, deckTheme, fontStack, MIN_TEXT_CONTRAST, readableColor, themeCss } from './theme.js'

const theme = (colors: Record<string, string>, extra: Partial<NonNullable<ProjectConfig['theme']>> = {}): ProjectConfig => ({
  theme: { fontFamily: 'Inter', radius: '0.5rem', colors: { default: colors as never }, ...extra },
})

describe('readableColor', () => {
  it('keeps a colour that already reaches AA contrast', () => {
    expect(readableColor('#1d4ed8', '#ffffff')).toBe('#1d4ed8')
    expect(readableColor('#f8fafc', '#0f172a')).toBe('#f8fafc')
  })

  it('darkens a pale colour on a light background until it reaches 4.5:1, keeping its hue', () => {
    expect(contrastRatio('#f9a8d4', '#ffffff')).toBeLessThan(2)
    const fixed = readableColor('#f9a8d4', '#ffffff')
    expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    expect(fixed).not.toBe('#000000')
    // Still a pink: more red than green.
    expect(parseInt(fixed.slice(1, 3), 16)).toBeGreaterThan(parseInt(fixed.slice(3, 5), 16))
  })

  it('lightens a dark colour on a dark background', () => {
    const fixed = readableColor('#1e293b', '#0f172a')
    expect(contrastRatio(fixed, '#0f172a')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })

  it('makes every colour readable against a mid-grey, the hardest background', () => {
    for (const color of ['#777777', '#808080', '#ff0000', '#00ff00', '#0000ff', '#7f7f7f80']) {
      expect(contrastRatio(readableColor(color, '#777777'), '#777777')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    }
  })

  it('draws a translucent colour over the background before judging it', () => {
    // Black at 10% on white is a very light grey: not readable as such.
    const fixed = readableColor('#0000001a', '#ffffff')
    expect(contrastRatio(fixed, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })

  it('falls back to a readable default for something that is not a colour', () => {
    expect(contrastRatio(readableColor('var(--nope)', '#ffffff'), '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    expect(contrastRatio(readableColor('red; } body { display:none', '#000000'), '#000000')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })
})

describe('deckTheme', () => {
  it('gives a pale primary a readable title colour and keeps the raw one for decoration', () => {
    const deck = deckTheme(theme({ background: '#ffffff', foreground: '#0f172a', primary: '#bae6fd', 'muted-foreground': '#cbd5e1' }))
    expect(contrastRatio(deck.title, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    expect(deck.vars.get('--slide-title')).toBe(deck.title)
    expect(deck.vars.get('--slide-decor')).toBe('#bae6fd')
    expect(contrastRatio(deck.vars.get('--slide-muted')!, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })

  it('checks the card text against the card colour, not the slide background', () => {
    const deck = deckTheme(theme({ background: '#ffffff', card: '#1e293b', 'card-foreground': '#334155', primary: '#1d4ed8' }))
    expect(contrastRatio(deck.vars.get('--slide-card-fg')!, '#1e293b')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    expect(contrastRatio(deck.vars.get('--slide-card-title')!, '#1e293b')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })

  it('resolves a var() of the theme or of the tokens to a readable colour, and nothing else', () => {
    const deck = deckTheme({
      ...theme({ background: '#ffffff', primary: '#1d4ed8' }),
      tokens: { palette: [{ name: '--brand-sun', value: '#fde047' }], fonts: [] },
    })
    expect(deck.textColor('var(--primary)')).toBe('#1d4ed8')
    expect(contrastRatio(deck.textColor('var(--brand-sun)')!, '#ffffff')).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
    expect(deck.textColor('var(--missing)')).toBeUndefined()
    expect(deck.textColor('url(javascript:alert(1))')).toBeUndefined()
  })

  it('writes only hex colours, lengths and quoted fonts into the CSS, whatever the config holds', () => {
    const css = themeCss(
      deckTheme(
        theme(
          { background: 'white', primary: 'red}</style><script>alert(1)</script>' },
          { fontFamily: 'Evil"; } * { x: y', radius: '1rem;}x{' },
        ),
      ),
    )
    expect(css).not.toMatch(/<|script|x:\s*y|\*/)
    expect(css).toContain('--slide-bg:#ffffff')
    expect(css).toContain('--slide-radius:0.75rem')
    expect(css.match(/\{/g)).toHaveLength(1)
  })

  it('uses defaults for a project without a theme', () => {
    const deck = deckTheme({})
    expect(deck.background).toBe('#ffffff')
    expect(contrastRatio(deck.title, deck.background)).toBeGreaterThanOrEqual(MIN_TEXT_CONTRAST)
  })
})

describe('fontStack', () => {
  it('quotes each family and ends with system fonts', () => {
    expect(fontStack('Inter, "Work Sans"')).toMatch(/^"Inter", "Work Sans", ui-sans-serif/)
    expect(fontStack(undefined)).toMatch(/^ui-sans-serif/)
  })
})
