import { beforeEach, describe, expect, it } from 'vitest'
import { REQUIRED_COLOR_KEYS, UpdateProjectConfigResponse } from '../../src/schemas/index.js'
import { expectError, expectSchema, harnessPerTest, WAYS } from '../support/harness.js'
import { worldOf } from '../support/state.js'

const colors = Object.fromEntries(REQUIRED_COLOR_KEYS.map((key) => [key, '#ffffff']))
const theme = { fontFamily: 'Inter', radius: '0.5rem', colors: { default: colors } }

describe.each(WAYS)('project config (%s)', (way) => {
  const h = harnessPerTest(way)
  let slug: string
  beforeEach(async () => {
    slug = (await h.api('POST', '/projects', { json: { name: 'Config test' } })).body.projectSlug
  })

  const put = (config: unknown) => h.api('PUT', `/projects/${slug}/config`, { json: { config } })
  const get = async () => (await h.api('GET', `/projects/${slug}/config`)).body.config

  it('starts empty and merges top-level keys, keeping the others', async () => {
    expect(await get()).toEqual({})
    const first = await put({ layout: 'CARD', width: 'FULL' })
    expect(expectSchema(UpdateProjectConfigResponse, first.body).config).toEqual({ layout: 'CARD', width: 'FULL' })
    const second = await put({ width: 'COMPACT', showBrandLogo: false })
    expect(second.body.config).toEqual({ layout: 'CARD', width: 'COMPACT', showBrandLogo: false })
    expect(await get()).toEqual(second.body.config)
  })

  it('replaces theme and tokens as a whole, with token arrays defaulting to empty', async () => {
    await put({ theme: { ...theme, headingFontFamily: 'Lora' }, tokens: { palette: [{ name: '--brand', value: '#123' }] } })
    expect(await get()).toEqual({
      theme: { ...theme, headingFontFamily: 'Lora' },
      tokens: { palette: [{ name: '--brand', value: '#123' }], fonts: [] },
    })
    await put({ theme, tokens: { fonts: [{ name: '--font-body', family: 'Inter', url: 'https://fonts.example/inter.css' }] } })
    expect(await get()).toEqual({
      theme,
      tokens: { palette: [], fonts: [{ name: '--font-body', family: 'Inter', url: 'https://fonts.example/inter.css' }] },
    })
  })

  it('creates a new version on every update and returns its id as latestVersion', async () => {
    const before = (await h.api('GET', `/projects/${slug}`)).body.latestVersion
    const reply = await put({ layout: 'SLIDES' })
    const after = (await h.api('GET', `/projects/${slug}`)).body.latestVersion
    expect(after.id).toBe(reply.body.versionId)
    expect(after.id).not.toBe(before.id)
  })

  it.each([
    [{ cardsSlidesPerView: 0.5 }, 200],
    [{ cardsSlidesPerView: 2 }, 200],
    [{ cardsSlidesPerView: 0.49 }, 400],
    [{ cardsSlidesPerView: 2.01 }, 400],
    [{ cardsSlidesPerView: '1' }, 400],
    [{ layout: 'GRID' }, 400],
    [{ slidesDisplay: 'CARDS', stackedOrientation: 'VERTICAL', cardsCorners: 'ROUND', mobileCanvas: 'COMPACT' }, 200],
    [{ tokens: { palette: [{ name: '--a', value: '#abcdef12' }] } }, 200],
    [{ tokens: { palette: [{ name: '-a', value: '#fff' }] } }, 400],
    [{ tokens: { palette: [{ name: '--A', value: '#fff' }] } }, 400],
    [{ tokens: { palette: [{ name: '--a', value: '#ffff' }] } }, 400],
    [{ tokens: { palette: [{ name: '--a' }] } }, 400],
    [{ tokens: { fonts: [{ name: '--body', family: 'Inter' }] } }, 400],
    [{ tokens: { fonts: [{ name: '--font-body', family: '' }] } }, 400],
    [{ tokens: { fonts: [{ name: '--font-body', family: 'Inter', url: 'not a url' }] } }, 400],
    [{ theme: { fontFamily: 'Inter', radius: '1rem', colors: { default: { ...colors, input: undefined } } } }, 400],
    [{ theme: { fontFamily: 'Inter', colors: { default: colors } } }, 400],
    [{ theme: { ...theme, colors: { default: colors, dark: { ...colors, 'chart-1': '#000' } } } }, 200],
  ])('validates %j → %i', async (config, status) => {
    const reply = await put(config)
    expect(reply.status).toBe(status)
    if (status === 400) {
      expectError(reply, 400, 'VALIDATION_ERROR')
      expect(reply.body.hint).toMatch(/^config\./)
    }
  })

  it.each([
    ['an unknown top-level key', '{"config":{"layout":"CARD","colour":"red"}}', 'config: unknown key "colour"'],
    ['__proto__', '{"config":{"__proto__":{"polluted":true}}}', 'config: unknown key "__proto__"'],
    ['constructor', '{"config":{"constructor":{"prototype":{"polluted":true}}}}', 'config: unknown key "constructor"'],
    ['prototype in tokens', '{"config":{"tokens":{"prototype":[]}}}', 'config.tokens: unknown key "prototype"'],
    [
      '__proto__ in a colour set',
      `{"config":{"theme":{"fontFamily":"a","radius":"b","colors":{"default":${JSON.stringify({ ...colors, __proto__x: 1 }).replace('__proto__x', '__proto__')}}}}}`,
      'config.theme.colors.default: unknown key "__proto__"',
    ],
    ['a missing config', '{}', 'config: is required'],
  ])('rejects %s with 400, stores nothing and pollutes no prototype', async (_, raw, hint) => {
    const before = await get()
    const versions = (await worldOf(h.emulator)).count('versions')
    const reply = await h.api('PUT', `/projects/${slug}/config`, { raw })
    expectError(reply, 400, 'VALIDATION_ERROR')
    expect(reply.body.hint).toBe(hint)
    expect(await get()).toEqual(before)
    expect((await worldOf(h.emulator)).count('versions')).toBe(versions)
    expect(({} as Record<string, unknown>).polluted).toBeUndefined()
    expect(Object.prototype).not.toHaveProperty('polluted')
  })

  it('answers 404 for a project the key cannot access', async () => {
    expectError(await h.api('PUT', `/projects/${slug}/config`, { key: 'pres_test_bob', json: { config: {} } }), 404, 'NOT_FOUND')
  })
})
