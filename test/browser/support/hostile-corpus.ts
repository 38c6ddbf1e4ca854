/**
 * Hostile slides, in one place (issue 31): each class of attack is an
 * exported array of its own, used by that class's tests (browser and
 * node) and by the slide checks' engine-equality test, which runs every
 * entry through each engine and expects the same verdict.
 *
 * In a slide's text, `CANARY` stands for the origin of a server nothing may
 * reach and `ORIGIN` for the emulator's; a test replaces both
 * (`hostileText`). `HIDDEN-RAN` is the marker a slide's hidden code would
 * put on the page if it ran.
 */

/** What a hostile slide must come to. */
export interface HostileExpectation {
  /** What `PUT` validation answers: `refused` (400 `VALIDATION_ERROR`) or `accepted`. */
  put: 'refused' | 'accepted'
  /** The refusal's hint (`slide.tsx:line:column: message`) matches this. */
  hint?: RegExp
  /** Stored anyway (a state import, `--fixtures`) and shown: the component fails with this message, or renders this text. */
  render: { fails: RegExp } | { shows: RegExp }
  /** Text that must never show anywhere on a page: what the slide's hostile code would put there if it ran. */
  never?: RegExp
}

export interface HostileSlide {
  name: string
  /** The class of attack, as the array holding it is named. */
  class: string
  tsx: string
  content?: unknown
  controls?: unknown
  expect: HostileExpectation
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
export const CLASSIC_READING: HostileSlide[] = [
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
