/**
 * Hostile slides, by class of attack (issue 31): each is a `slide.tsx` (and
 * its files) with what must come of it. The browser tests render them in
 * the editor and the sites; the slide checks' engine-equality test renders
 * the same ones. Each class is an array of its own, named after it, so
 * that several can grow here at once.
 *
 * A slide's code names no host: nothing here reaches beyond the slide.
 */

/** What must come of a hostile slide where it shows (its thumbnail, its stage). */
export type HostileExpectation =
  /** It renders; its text matches, when given. */
  | { state: 'rendered'; text?: RegExp }
  /** It shows its own error (with the content rendering under it): the error's text matches, and its place (`slide.tsx:line:column`) when given. */
  | { state: 'failed'; error: RegExp; at?: RegExp }

export interface HostileSlide {
  name: string
  /** The class of attack it stands for. */
  class: string
  tsx: string
  content?: unknown
  controls?: unknown
  expect: HostileExpectation
  /**
   * A slide rendered after this one in the same locked worker, and what it
   * must show: the hostile one must not have changed it.
   */
  next?: { tsx: string; expect: HostileExpectation }
}

/* ------------------------------------------------------------------ oversized */

const OVERSIZED_CLASS = 'oversized: markup too large or too costly, before or after sanitising'

/**
 * Slides whose markup is too large, or grows too large (sanitised, or
 * written out for a picture), or would cost the renderer frame's one
 * thread too much to parse. Each shows its own error (or, under every
 * limit, renders), and the rest of the deck renders.
 */
export const OVERSIZED: HostileSlide[] = [
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
    expect: { state: 'failed', error: /z{100}/ },
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
const ERROR_PROBE_EXPECT: HostileExpectation = { state: 'rendered', text: /^Error: probe\|frames\|function\|10\|captured\|undefined$/ }

/**
 * Slides that change what a locked worker keeps (SES's lockdown leaves
 * `Error`'s stack settings writable with `errorTaming: 'unsafe'`, the
 * global scope's bindings, anything else reachable), then the slide
 * rendered next in the same worker, whose output must be untouched.
 */
export const LEFTOVERS: HostileSlide[] = [
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
