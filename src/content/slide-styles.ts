/**
 * The base stylesheet of generated slides: the renderer puts it into every
 * slide's display frame, with the project's theme as custom properties
 * (`deckTheme(config).vars`, `src/pages/theme.ts`). It styles the class
 * names generated components use (`slide`, `slide--<design>`,
 * `slide__body`, `stat`, `image`) and their headings, text, lists and
 * quotes. It reads only the theme's variables (each with a fallback), has
 * no URL, no `@import` and no web font, and sizes everything relative to
 * the 16:9 slide box (container query units), so a slide looks the same as
 * a thumbnail and full screen.
 *
 * A first version covering today's generated components; generation's own
 * stylesheet (issue 20, "generated decks worth rendering") replaces it.
 */
export const SLIDE_BASE_CSS = String.raw`
.slide{box-sizing:border-box;width:100%;height:100%;container-type:size;overflow:hidden;display:flex;flex-direction:column;gap:2.2cqh;padding:7cqh 6cqw;background:var(--slide-bg,#fff);color:var(--slide-fg,#0f172a);font-family:var(--slide-font,system-ui,sans-serif);font-size:2.2cqw;line-height:1.45;text-align:left;overflow-wrap:break-word}
.slide *,.slide *::before,.slide *::after{box-sizing:border-box}
.slide h1{margin:0;font-family:var(--slide-heading-font,var(--slide-font,system-ui,sans-serif));font-size:2.3em;line-height:1.12;letter-spacing:-.015em;font-weight:750;color:var(--slide-title,#1d4ed8)}
.slide h1::after{content:"";display:block;width:2.2em;height:.12em;margin-top:.42em;border-radius:.1em;background:var(--slide-decor,#1d4ed8)}
.slide h2{margin:.2em 0 0;font-family:var(--slide-heading-font,var(--slide-font,system-ui,sans-serif));font-size:1.25em;line-height:1.25;font-weight:680;color:var(--slide-fg,#0f172a)}
.slide p{margin:0}
.slide ul{margin:0;padding-left:1.25em;display:flex;flex-direction:column;gap:.35em}
.slide li::marker{color:var(--slide-decor,#1d4ed8)}
.slide blockquote{margin:0}
.slide blockquote p{font-size:1.6em;line-height:1.3;font-weight:560;font-style:italic}
.slide blockquote p::before{content:"\201C";display:block;font-size:2em;line-height:.7;color:var(--slide-decor,#1d4ed8);font-style:normal}
.slide cite{display:block;margin-top:.8em;font-style:normal;font-weight:650;color:var(--slide-muted,#475569)}
.slide cite::before{content:"\2014\00a0"}
.slide__body{display:flex;flex-direction:column;gap:.8em;min-height:0}
.slide--title,.slide--closing{justify-content:center}
.slide--title h1{font-size:3.4em}
.slide--title .slide__body,.slide--closing .slide__body{font-size:1.25em;color:var(--slide-muted,#475569)}
.slide--quote{justify-content:center}
.slide--stats .slide__body{flex-direction:row;flex-wrap:wrap;gap:1em}
.slide--split .slide__body{display:grid;grid-template-columns:1fr 1fr;column-gap:2.2em;row-gap:.5em;grid-auto-flow:dense}
.slide .stat{flex:1 1 0;margin:0;padding:1em 1.1em;border-radius:var(--slide-radius,.75rem);background:var(--slide-card,#f8fafc);color:var(--slide-card-fg,#0f172a);border:1px solid var(--slide-border,#e2e8f0)}
.slide .stat strong{display:block;font-size:2.8em;line-height:1.05;font-weight:800;color:var(--slide-card-title,#1d4ed8)}
.slide .stat figcaption{margin-top:.35em;font-weight:560}
.slide .image{margin:0;display:flex;justify-content:center;min-height:0}
.slide .image img{display:block;max-width:100%;max-height:45cqh;object-fit:contain;border-radius:var(--slide-radius,.75rem)}
`
