/**
 * The base stylesheet of generated slides.
 *
 * A renderer puts `SLIDE_BASE_CSS` into every slide's document together
 * with the project's theme as custom properties (`deckTheme(config).vars`
 * in `web/pages/theme.ts`). Generated components (`components.ts`) style
 * themselves only through its class names; a component an agent writes may
 * use them too, or its own styles. It reads only the theme's variables
 * (each with a fallback), the font tokens `--font-heading` and
 * `--font-body` when a project defines them, and `--slide-accent` (set by a
 * component from its `accent` prop). It has no URL, no `@import` and no web
 * font, and sizes everything relative to the 16:9 slide box (container
 * query units), so a slide looks the same as a thumbnail and full screen.
 * The slide guide lists the class names and the variables
 * (`rendering-guide.ts`; a test holds them and this stylesheet together).
 */

export const SLIDE_BASE_CSS = `/* Generated slides: base stylesheet (presentation-emulator). */
.slide{--slide-accent:var(--primary,#1d4ed8);position:relative;box-sizing:border-box;display:flex;width:100%;aspect-ratio:16/9;overflow:hidden;container-type:inline-size;background:var(--slide-bg,#ffffff);color:var(--slide-fg,#0f172a);font-family:var(--font-body,var(--slide-font,system-ui,sans-serif));line-height:1.4;text-align:left;overflow-wrap:break-word}
.slide *,.slide *::before,.slide *::after{box-sizing:border-box}
.slide h1,.slide h2,.slide p,.slide ul,.slide ol,.slide figure,.slide blockquote{margin:0}
.slide__decor{position:absolute;inset:0;pointer-events:none}
.slide__decor span{position:absolute;display:block;border-radius:50%}
.slide__inner{position:relative;z-index:1;flex:1 1 auto;min-width:0;min-height:0;display:flex;flex-direction:column;gap:1.1em;padding:5.6cqw 7cqw;font-size:1.9cqw}
.slide__header{display:flex;flex-direction:column;gap:.45em}
.slide__header::after{content:"";display:block;width:2.6em;height:.2em;margin-top:.35em;border-radius:.1em;background:var(--slide-accent,#1d4ed8)}
.slide__kicker{font-size:.72em;font-weight:700;letter-spacing:.14em;text-transform:uppercase;color:var(--slide-muted,#475569)}
.slide__title{font-family:var(--font-heading,var(--slide-heading-font,var(--slide-font,system-ui,sans-serif)));font-size:2.1em;line-height:1.1;font-weight:750;letter-spacing:-.02em;color:var(--slide-title,#1d4ed8);text-wrap:balance}
.slide__subtitle{font-size:1.2em;line-height:1.35;color:var(--slide-muted,#475569);text-wrap:balance}
.slide__lead{max-width:42em;font-size:1.1em;line-height:1.45;color:var(--slide-muted,#475569)}
.slide__list{list-style:none;padding:0;display:flex;flex-direction:column;gap:.6em}
.slide__list li{position:relative;padding-left:1.3em}
.slide__list li::before{content:"";position:absolute;left:0;top:.5em;width:.5em;height:.5em;border-radius:.12em;background:var(--slide-accent,#1d4ed8)}
.slide__list--two{display:grid;grid-template-columns:repeat(2,minmax(0,1fr));gap:.7em 2.4em}
.slide__callout{margin-top:auto;padding:.8em 1.1em;border-left:.28em solid var(--slide-accent,#1d4ed8);border-radius:0 min(var(--slide-radius,.75rem),.6em) min(var(--slide-radius,.75rem),.6em) 0;background:var(--slide-card,#f8fafc);background:color-mix(in srgb,var(--slide-accent,#1d4ed8) 9%,var(--slide-bg,#ffffff));font-weight:650}
.slide--centered{text-align:center}
.slide--centered .slide__inner{align-items:center}
.slide--centered .slide__header{align-items:center}
.slide--centered .slide__list{text-align:left}

.slide--title .slide__inner,.slide--closing .slide__inner{justify-content:center}
.slide--title .slide__inner{padding-right:36cqw}
.slide--title .slide__title{font-size:3.3em;line-height:1.04}
.slide--title .slide__header::after{width:3.4em;height:.24em;margin-top:.5em}
.slide--title .slide__decor span:nth-child(1){width:46cqw;height:46cqw;right:-9cqw;top:-6cqw;background:var(--slide-accent,#1d4ed8);opacity:.9}
.slide--title .slide__decor span:nth-child(2){width:26cqw;height:26cqw;right:22cqw;bottom:-12cqw;background:var(--slide-accent,#1d4ed8);opacity:.18}
.slide--title .slide__decor span:nth-child(3){width:14cqw;height:14cqw;right:8cqw;bottom:6cqw;border:1.1cqw solid var(--slide-accent,#1d4ed8);opacity:.45}
.slide--title.slide--centered .slide__inner{padding-right:7cqw}
.slide--title.slide--centered .slide__decor span{opacity:.1}

.slide--agenda .slide__inner{display:grid;grid-template-columns:minmax(0,.8fr) minmax(0,1.5fr);align-items:center;gap:3.5em}
.slide__agenda{list-style:none;padding:0;display:flex;flex-direction:column}
.slide__agenda li{display:grid;grid-template-columns:2.6em minmax(0,1fr);align-items:baseline;gap:.6em;padding:.55em 0;border-bottom:1px solid var(--slide-border,#e2e8f0)}
.slide__agenda li:first-child{border-top:1px solid var(--slide-border,#e2e8f0)}
.slide__agenda-number{font-family:var(--font-heading,var(--slide-heading-font,var(--slide-font,system-ui,sans-serif)));font-size:1.5em;font-weight:800;line-height:1;color:var(--slide-title,#1d4ed8);font-variant-numeric:tabular-nums}
.slide__agenda-text{font-size:1.1em;font-weight:600}

.slide__columns{flex:1;min-height:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(0,1fr));gap:1.6em;align-items:stretch}
.slide__column{display:flex;flex-direction:column;gap:.7em;padding:1.3em 1.4em;border:1px solid var(--slide-border,#e2e8f0);border-top:.28em solid var(--slide-accent,#1d4ed8);border-radius:min(var(--slide-radius,.75rem),.8em);background:var(--slide-card,#f8fafc);color:var(--slide-card-fg,#0f172a)}
.slide__column-title{font-family:var(--font-heading,var(--slide-heading-font,var(--slide-font,system-ui,sans-serif)));font-size:1.25em;font-weight:700;color:var(--slide-card-title,#1d4ed8)}
.slide__column .slide__list{gap:.45em;font-size:.95em}

.slide--quote{background:var(--slide-bg,#ffffff);background:color-mix(in srgb,var(--slide-accent,#1d4ed8) 7%,var(--slide-bg,#ffffff))}
.slide--quote .slide__inner{justify-content:center;gap:1.4em;padding-left:10cqw;padding-right:10cqw}
.slide__quote{position:relative;display:flex;flex-direction:column;gap:1em}
.slide__quote::before{content:"\\201C";display:block;height:.45em;font-family:Georgia,"Times New Roman",serif;font-size:6em;line-height:.9;color:var(--slide-accent,#1d4ed8)}
.slide__quote-text{font-family:var(--font-heading,var(--slide-heading-font,var(--slide-font,system-ui,sans-serif)));font-size:1.85em;line-height:1.28;font-weight:600;letter-spacing:-.01em;color:var(--slide-fg,#0f172a);text-wrap:balance}
.slide__quote-author{font-size:1em;font-style:normal;font-weight:650;color:var(--slide-muted,#475569)}
.slide__quote-author::before{content:"\\2014\\00a0"}
.slide--quote.slide--centered .slide__quote::before{align-self:center}

.slide__stats{flex:1;min-height:0;display:grid;grid-template-columns:repeat(auto-fit,minmax(0,1fr));gap:1.4em;align-content:center}
.slide__stat{display:flex;flex-direction:column;gap:.5em;padding:1.3em 1.4em;border:1px solid var(--slide-border,#e2e8f0);border-top:.28em solid var(--slide-accent,#1d4ed8);border-radius:min(var(--slide-radius,.75rem),.8em);background:var(--slide-card,#f8fafc);color:var(--slide-card-fg,#0f172a)}
.slide__stat-value{font-family:var(--font-heading,var(--slide-heading-font,var(--slide-font,system-ui,sans-serif)));font-size:3.2em;line-height:1;font-weight:800;letter-spacing:-.03em;white-space:nowrap;color:var(--slide-card-title,#1d4ed8);font-variant-numeric:tabular-nums}
.slide__stat-label{font-size:1em;line-height:1.35;font-weight:550}

.slide--image .slide__inner{justify-content:center}
.slide--image .slide__title{font-size:1.8em}
.slide__media{flex:1;min-height:0;display:grid;grid-template-columns:minmax(0,1.15fr) minmax(0,1fr);gap:2.6em;align-items:center}
.slide__media--reverse .slide__media-text{order:2}
.slide__media-text{display:flex;flex-direction:column;gap:1em;min-width:0}
.slide__figure{overflow:hidden;aspect-ratio:4/3;border-radius:min(var(--slide-radius,.75rem),1em);background:var(--slide-card,#f8fafc);background:color-mix(in srgb,var(--slide-accent,#1d4ed8) 8%,var(--slide-bg,#ffffff))}
.slide__image{display:block;width:100%;height:100%;object-fit:contain}

.slide--closing .slide__inner{align-items:center;text-align:center;gap:1.3em}
.slide--closing .slide__header{align-items:center}
.slide--closing .slide__title{font-size:3.1em}
.slide--closing .slide__subtitle{max-width:30em}
.slide--closing .slide__decor span:nth-child(1){width:34cqw;height:34cqw;left:-12cqw;bottom:-14cqw;background:var(--slide-accent,#1d4ed8);opacity:.16}
.slide--closing .slide__decor span:nth-child(2){width:20cqw;height:20cqw;right:-5cqw;top:-6cqw;background:var(--slide-accent,#1d4ed8);opacity:.85}
.slide--closing .slide__decor span:nth-child(3){width:9cqw;height:9cqw;right:14cqw;bottom:7cqw;border:.9cqw solid var(--slide-accent,#1d4ed8);opacity:.4}
.slide__contact{display:inline-flex;align-items:center;gap:.6em;padding:.5em 1.2em;border:1px solid var(--slide-border,#e2e8f0);border-radius:999px;font-weight:600;color:var(--slide-fg,#0f172a);background:var(--slide-card,#f8fafc)}
.slide__contact::before{content:"";width:.55em;height:.55em;border-radius:50%;background:var(--slide-accent,#1d4ed8)}
`
