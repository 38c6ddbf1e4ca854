/** Project configuration: the merge, every bound and pattern, and the version a write makes. */
import { Clauses, endpoint } from '../clauses.js'
import { createProject, needs, scenario } from './support.js'

const PUT = endpoint('updateProjectConfig')

export const COLORS = {
  background: '#ffffff',
  foreground: '#0f172a',
  card: '#ffffff',
  'card-foreground': '#0f172a',
  primary: '#1d4ed8',
  'primary-foreground': '#ffffff',
  secondary: '#e2e8f0',
  'secondary-foreground': '#0f172a',
  muted: '#f1f5f9',
  'muted-foreground': '#475569',
  accent: '#f59e0b',
  'accent-foreground': '#0f172a',
  destructive: '#dc2626',
  'destructive-foreground': '#ffffff',
  border: '#e2e8f0',
  input: '#e2e8f0',
}
export const THEME = { fontFamily: 'Inter', radius: '0.5rem', colors: { default: COLORS } }
const { primary: _primary, ...COLORS_WITHOUT_PRIMARY } = COLORS

export const configScenarios = [
  scenario({
    id: 'config.merge',
    title: 'PUT /config merges: keys the body leaves out are kept',
    needs: needs('writes'),
    covers: [
      ['updateProjectConfig', 200],
      ['getProjectConfig', 200],
      ['createProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'config merge')
      await ctx.ok(main, 'updateProjectConfig', { params: { slug }, body: { config: { layout: 'SLIDES', cardsSlidesPerView: 1.5 } } })
      const second = await ctx.call(main, 'updateProjectConfig', { params: { slug }, body: { config: { width: 'FULL' } } })
      const answer = ctx.expectOk<'updateProjectConfig'>(second)
      ctx.should(
        PUT,
        'the answer’s config is the merged configuration',
        answer.config.layout === 'SLIDES' && answer.config.width === 'FULL',
        {
          actual: answer.config,
          exchange: second,
        },
      )
      const read = await ctx.call(main, 'getProjectConfig', { params: { slug } })
      const { config } = ctx.expectOk<'getProjectConfig'>(read)
      ctx.equal('MUST', PUT, 'a key the second body left out (layout) is kept', config.layout, 'SLIDES', read)
      ctx.equal('MUST', PUT, 'a key the second body left out (cardsSlidesPerView) is kept', config.cardsSlidesPerView, 1.5, read)
      ctx.equal('MUST', PUT, 'the key the second body gave (width) is stored', config.width, 'FULL', read)

      await ctx.ok(main, 'updateProjectConfig', {
        params: { slug },
        body: {
          config: {
            tokens: { palette: [{ name: '--brand-blue', value: '#1d4ed8' }], fonts: [{ name: '--font-heading', family: 'Inter' }] },
          },
        },
      })
      await ctx.ok(main, 'updateProjectConfig', { params: { slug }, body: { config: { showBrandLogo: true } } })
      const tokens = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config
      ctx.equal('MUST', PUT, 'tokens set by an earlier write are kept by a write that leaves them out', tokens.tokens?.palette, [
        { name: '--brand-blue', value: '#1d4ed8' },
      ])
      ctx.equal('MUST', PUT, 'layout is still kept after a third write', tokens.layout, 'SLIDES')
      ctx.equal('MUST', PUT, 'showBrandLogo is stored', tokens.showBrandLogo, true)
    },
  }),
  scenario({
    id: 'config.bounds',
    title: 'Config values are checked: cardsSlidesPerView 0.5–2, enums, token patterns, theme; a refused write changes nothing',
    needs: needs('writes'),
    covers: [
      ['updateProjectConfig', 400],
      ['updateProjectConfig', 200],
      ['createProject', 200],
      ['getProjectConfig', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'config bounds')
      await ctx.ok(main, 'updateProjectConfig', { params: { slug }, body: { config: { layout: 'REGULAR', cardsSlidesPerView: 1 } } })
      const baseline = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config

      const refused: Array<[string, unknown]> = [
        ['cardsSlidesPerView below 0.5', { cardsSlidesPerView: 0.49 }],
        ['cardsSlidesPerView above 2', { cardsSlidesPerView: 2.01 }],
        ['cardsSlidesPerView as text', { cardsSlidesPerView: '1' }],
        ['a layout outside the enum', { layout: 'GRID' }],
        ['a width outside the enum', { width: 'WIDE' }],
        ['showBrandLogo not a boolean', { showBrandLogo: 'yes' }],
        ['a palette name without --', { tokens: { palette: [{ name: 'brand', value: '#123456' }] } }],
        ['a palette name with capitals', { tokens: { palette: [{ name: '--Brand', value: '#123456' }] } }],
        ['a palette name starting with a digit', { tokens: { palette: [{ name: '--1brand', value: '#123456' }] } }],
        ['a palette value of 2 hex digits', { tokens: { palette: [{ name: '--brand', value: '#12' }] } }],
        ['a palette value of 5 hex digits', { tokens: { palette: [{ name: '--brand', value: '#12345' }] } }],
        ['a palette value that is a colour name', { tokens: { palette: [{ name: '--brand', value: 'blue' }] } }],
        ['a palette token without a value', { tokens: { palette: [{ name: '--brand' }] } }],
        ['a font name without --font-', { tokens: { fonts: [{ name: '--heading', family: 'Inter' }] } }],
        ['an empty font family', { tokens: { fonts: [{ name: '--font-heading', family: '' }] } }],
        ['a font url that is not a URI', { tokens: { fonts: [{ name: '--font-heading', family: 'Inter', url: 'not a uri' }] } }],
        ['a theme without radius', { theme: { fontFamily: 'Inter', colors: { default: COLORS } } }],
        ['a theme whose colors lack primary', { theme: { ...THEME, colors: { default: COLORS_WITHOUT_PRIMARY } } }],
        ['a theme without colors.default', { theme: { ...THEME, colors: { dark: COLORS } } }],
        ['a theme without fontFamily', { theme: { radius: '0.5rem', colors: { default: COLORS } } }],
        [
          'a theme whose dark colors lack input',
          { theme: { ...THEME, colors: { default: COLORS, dark: { ...COLORS, input: undefined } } } },
        ],
        ['a slidesDisplay outside the enum', { slidesDisplay: 'GRID' }],
        ['a stackedOrientation outside the enum', { stackedOrientation: 'DIAGONAL' }],
        ['a cardsCorners outside the enum', { cardsCorners: 'ROUNDED' }],
        ['a mobileCanvas outside the enum', { mobileCanvas: 'FULL' }],
        ['cardsBackgroundColor not a string', { cardsBackgroundColor: 7 }],
        ['cardsBackgroundImage not a string', { cardsBackgroundImage: false }],
        ['tokens.palette not an array', { tokens: { palette: { name: '--brand', value: '#123456' } } }],
      ]
      for (const [what, config] of refused) {
        const exchange = await ctx.send(main, { operationId: 'updateProjectConfig', params: { slug }, body: { config } })
        ctx.check('MUST', Clauses.config, `${what} is refused (400)`, exchange.status === 400, {
          expected: 400,
          actual: exchange.status,
          exchange,
        })
      }
      ctx.expectError(await ctx.send(main, { operationId: 'updateProjectConfig', params: { slug }, body: {} }), 400, PUT)
      const after = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config
      ctx.equal('MUST', Clauses.errors, 'refused writes leave the configuration as it was', after, baseline)

      const accepted: Array<[string, unknown]> = [
        ['cardsSlidesPerView 0.5', { cardsSlidesPerView: 0.5 }],
        ['cardsSlidesPerView 2', { cardsSlidesPerView: 2 }],
        [
          'palette values of 3, 6 and 8 hex digits',
          {
            tokens: {
              palette: [
                { name: '--a', value: '#abc' },
                { name: '--b-2', value: '#A1B2C3' },
                { name: '--c', value: '#aabbccdd' },
              ],
            },
          },
        ],
        [
          'a font token with a url',
          { tokens: { fonts: [{ name: '--font-body', family: 'Inter', url: 'https://fonts.example.com/inter.css' }] } },
        ],
        [
          'a full theme with a dark set',
          { theme: { ...THEME, headingFontFamily: 'Georgia', colors: { default: COLORS, dark: { ...COLORS, 'chart-1': '#000000' } } } },
        ],
        [
          'every enum at once',
          {
            layout: 'STACKED',
            slidesDisplay: 'FULLSCREEN',
            stackedOrientation: 'HORIZONTAL',
            cardsCorners: 'SQUARE',
            width: 'COMPACT',
            mobileCanvas: 'LEGACY',
            cardsBackgroundColor: '#000',
            cardsBackgroundImage: 'none',
            showBrandLogo: false,
          },
        ],
      ]
      for (const [what, config] of accepted) {
        const exchange = await ctx.send(main, { operationId: 'updateProjectConfig', params: { slug }, body: { config } })
        if (
          ctx.check('MUST', Clauses.config, `${what} is accepted (200)`, exchange.status === 200, {
            expected: 200,
            actual: exchange.status,
            exchange,
          })
        )
          ctx.expectShape(exchange)
      }
      const final = (await ctx.ok(main, 'getProjectConfig', { params: { slug } })).config
      ctx.equal(
        'MUST',
        PUT,
        'the last values written are stored',
        [final.cardsSlidesPerView, final.layout, final.width],
        [2, 'STACKED', 'COMPACT'],
      )
    },
  }),
  scenario({
    id: 'versions.config',
    title: 'After a config write, latestVersion is the versionId the write answered',
    needs: needs('writes'),
    covers: [
      ['updateProjectConfig', 200],
      ['getProject', 200],
      ['createProject', 200],
    ],
    async run(ctx) {
      const main = await ctx.main()
      const { slug } = await createProject(ctx, main, 'versions')
      for (const layout of ['SLIDES', 'CARD'] as const) {
        const write = await ctx.ok(main, 'updateProjectConfig', { params: { slug }, body: { config: { layout } } })
        const detail = await ctx.call(main, 'getProject', { params: { slug } })
        ctx.equal(
          'MUST',
          Clauses.versioning,
          'latestVersion.id is the versionId of the last config write',
          ctx.expectOk<'getProject'>(detail).latestVersion?.id,
          write.versionId,
          detail,
        )
      }
    },
  }),
]
