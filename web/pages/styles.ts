/**
 * The pages' stylesheet (`/_emulator/assets/pages.css`): the slide viewer of
 * the editor and the published sites, the slides themselves, and the
 * dashboard. Slides are sized with container query units, so the same
 * markup renders as a full-window slide, a thumbnail or a phone-width card.
 */
export const PAGES_CSS = String.raw`
*,*::before,*::after{box-sizing:border-box}
html,body{margin:0;height:100%}
body{font-family:ui-sans-serif,system-ui,-apple-system,"Segoe UI",Roboto,"Helvetica Neue",Arial,"Noto Sans","Liberation Sans",sans-serif;color:#0f172a;background:#f1f5f9;-webkit-font-smoothing:antialiased}
a{color:#1d4ed8}
button{font:inherit;color:inherit}
:focus-visible{outline:3px solid #60a5fa;outline-offset:2px}
[hidden]{display:none!important}
.visually-hidden{position:absolute!important;width:1px;height:1px;overflow:hidden;clip:rect(0 0 0 0);white-space:nowrap}

/* ---------- buttons and chips (shared) ---------- */
.btn{display:inline-flex;align-items:center;justify-content:center;gap:.4rem;min-height:2.1rem;padding:.35rem .8rem;border-radius:.5rem;border:1px solid #cbd5e1;background:#fff;color:#0f172a;font-size:.85rem;font-weight:560;cursor:pointer;text-decoration:none;white-space:nowrap}
.btn:hover{background:#f8fafc;border-color:#94a3b8}
.btn:disabled{opacity:.45;cursor:default}
.btn-primary{background:#1d4ed8;border-color:#1d4ed8;color:#fff}.btn-primary:hover{background:#1e40af;border-color:#1e40af}
.btn-danger{color:#b91c1c;border-color:#fca5a5}.btn-danger:hover{background:#fef2f2;border-color:#ef4444}
.btn-danger.confirming{background:#b91c1c;border-color:#b91c1c;color:#fff}
.btn-small{min-height:1.7rem;padding:.15rem .55rem;font-size:.78rem}
.btn-ghost{background:transparent;border-color:transparent}
.chip{display:inline-flex;align-items:center;gap:.35rem;padding:.15rem .6rem;border-radius:999px;font-size:.75rem;font-weight:560;background:#e2e8f0;color:#334155;white-space:nowrap;text-decoration:none}
.chip-ok{background:#dcfce7;color:#166534}
.chip-busy{background:#dbeafe;color:#1e40af}
.chip-error{background:#fee2e2;color:#991b1b}
.chip-muted{background:#f1f5f9;color:#475569}
a.chip:hover{text-decoration:underline}
.spinner{display:inline-block;width:1em;height:1em;border:.15em solid currentColor;border-right-color:transparent;border-radius:50%;animation:spin .9s linear infinite;flex:none}
@keyframes spin{to{transform:rotate(360deg)}}
@media (prefers-reduced-motion:reduce){.spinner{animation-duration:3s}}

/* ---------- the slide viewer (editor and published site) ---------- */
body.viewer-page{height:100dvh;overflow:hidden}
.viewer{display:grid;height:100dvh;grid-template-columns:232px minmax(0,1fr);grid-template-rows:auto auto minmax(0,1fr) auto;grid-template-areas:"top top" "notice notice" "strip stage" "strip nav";background:#e2e8f0}
.viewer-site{grid-template-columns:minmax(0,1fr);grid-template-rows:auto auto minmax(0,1fr) auto auto;grid-template-areas:"top" "notice" "stage" "nav" "strip";background:#0b1120}
.topbar{grid-area:top;display:flex;align-items:center;gap:.9rem;padding:.6rem 1rem;background:#0f172a;color:#f8fafc;min-width:0;border-bottom:1px solid #1e293b}
.brand{display:inline-flex;align-items:center;gap:.45rem;font-size:.78rem;font-weight:700;letter-spacing:.06em;text-transform:uppercase;color:#93c5fd;flex:none}
.brand svg{width:1.4rem;height:1.4rem}
.deck-heading{display:flex;align-items:center;gap:.7rem;min-width:0;flex:1}
.deck-heading h1{font-size:1.02rem;font-weight:650;margin:0;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0}
.chips{display:flex;gap:.4rem;align-items:center;flex-wrap:wrap;min-width:0}
.chip-version{display:inline-block;max-width:100%;min-width:0;overflow:hidden;text-overflow:ellipsis}
.topbar .chip{background:#1e293b;color:#cbd5e1}
.topbar .chip-ok{background:#14532d;color:#dcfce7}
.topbar .chip-busy{background:#1e3a8a;color:#dbeafe}
.topbar .chip-error{background:#7f1d1d;color:#fee2e2}
.tools{display:flex;align-items:center;gap:.5rem;flex:none}
.topbar .btn{background:#1e293b;border-color:#334155;color:#f8fafc}
.topbar .btn:hover{background:#334155}
.topbar .btn[aria-pressed="true"]{background:#f8fafc;color:#0f172a}
.topbar .btn-primary{background:#2563eb;border-color:#2563eb}
.live{display:inline-flex;align-items:center;gap:.4rem;font-size:.75rem;color:#94a3b8}
.live::before{content:"";width:.55rem;height:.55rem;border-radius:50%;background:#64748b}
.live.on{color:#bbf7d0}.live.on::before{background:#22c55e;box-shadow:0 0 0 3px rgba(34,197,94,.25)}
.notice-area{grid-area:notice}
.notice-bar{display:flex;align-items:center;gap:.6rem;padding:.55rem 1rem;font-size:.88rem;border-bottom:1px solid}
.notice-error{background:#fef2f2;color:#991b1b;border-color:#fecaca}
.notice-busy{background:#eff6ff;color:#1e3a8a;border-color:#bfdbfe}
.notice-info{background:#fffbeb;color:#92400e;border-color:#fde68a}
.filmstrip{grid-area:strip;overflow:auto;background:#f8fafc;border-right:1px solid #cbd5e1;padding:.8rem .7rem;display:flex;flex-direction:column;gap:.7rem;min-height:0}
.viewer-site .filmstrip{flex-direction:row;background:#0f172a;border:0;border-top:1px solid #1e293b;padding:.6rem .8rem}
.viewer-site .thumb{width:9.5rem;flex:none;color:#cbd5e1}
.thumb{position:relative;display:block;width:100%;padding:.3rem;border:2px solid transparent;border-radius:.6rem;background:transparent;cursor:pointer;text-align:left}
.thumb:hover{background:rgba(148,163,184,.18)}
.thumb[aria-current="true"]{border-color:#2563eb;background:rgba(37,99,235,.08)}
.thumb-slide{display:flex;aspect-ratio:16/9;container-type:inline-size;overflow:hidden;background:var(--slide-bg,#fff);border-radius:.3rem;box-shadow:0 1px 2px rgba(15,23,42,.18),0 0 0 1px rgba(15,23,42,.06);pointer-events:none}
.thumb-caption{display:flex;gap:.4rem;align-items:baseline;margin-top:.3rem;font-size:.75rem;min-width:0}
.thumb-number{font-weight:700;color:#64748b;flex:none}
.viewer-site .thumb-number{color:#94a3b8}
.thumb-name{white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.thumb.is-editing .thumb-slide{box-shadow:0 0 0 2px #f59e0b}
/* A slide's last check (its badge): a mark and a word, the colour only repeats them. */
.check-badge{display:inline-flex;align-items:center;gap:.25rem;flex:none;padding:0 .4rem;border:1px solid;border-radius:999px;font-size:.66rem;font-weight:650;line-height:1.5;white-space:nowrap}
.thumb-caption .check-badge{margin-left:auto}
.check-rendered{background:#dcfce7;color:#166534;border-color:#86efac}
.check-error,.check-crashed{background:#fee2e2;color:#991b1b;border-color:#fca5a5}
.check-timeout,.check-too-large{background:#fef3c7;color:#92400e;border-color:#fcd34d}
.check-badge-layout{font-weight:600}
.check-list{display:flex;flex-wrap:wrap;gap:.25rem;margin:0;padding:0;list-style:none}
.check-list .check-position{font-variant-numeric:tabular-nums}
/* A long deck's row stays short: a slide that renders shows its mark (its sentence stays its title and name). */
.check-list .check-rendered .check-label{display:none}
.thumb-editing{position:absolute;top:.55rem;right:.55rem;display:inline-flex;align-items:center;gap:.3rem;max-width:calc(100% - 1.1rem);padding:.1rem .45rem;border-radius:999px;background:#0f172a;color:#fde68a;font-size:.68rem;font-weight:600;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;box-shadow:0 1px 3px rgba(0,0,0,.3)}
.stage{grid-area:stage;position:relative;min-height:0;min-width:0;padding:1.5rem;overflow:hidden}
.stage-fit{width:100%;height:100%;container-type:size;display:grid;place-items:center}
.stage-slides{display:contents}
.stage-empty{position:absolute;inset:0;display:grid;place-items:center;padding:1.5rem}
.empty-card{max-width:34rem;text-align:center;background:#fff;border-radius:1rem;padding:2rem 2.2rem;box-shadow:0 10px 30px rgba(15,23,42,.12);color:#334155}
.empty-card h2{margin:.2rem 0 .5rem;font-size:1.25rem;color:#0f172a}
.empty-card p{margin:.4rem 0;line-height:1.5}
.empty-card code{font-size:.85em;background:#f1f5f9;padding:.1rem .3rem;border-radius:.25rem}
.empty-card .spinner{font-size:1.8rem;color:#2563eb}
.empty-card.failed{border-top:4px solid #dc2626}
.navbar{grid-area:nav;display:flex;align-items:center;gap:.6rem;padding:.5rem 1rem;background:#f8fafc;border-top:1px solid #cbd5e1;min-width:0}
.viewer-site .navbar{background:#0b1120;border-color:#1e293b;color:#e2e8f0}
.viewer-site .navbar .btn{background:#1e293b;border-color:#334155;color:#f8fafc}
.counter{font-variant-numeric:tabular-nums;font-weight:650;font-size:.9rem;min-width:4.2rem;text-align:center}
.slide-name{font-size:.85rem;color:#475569;white-space:nowrap;overflow:hidden;text-overflow:ellipsis;min-width:0;flex:1}
.viewer-site .slide-name{color:#94a3b8}
.keys-hint{font-size:.75rem;color:#64748b;white-space:nowrap}
.viewer-site .keys-hint{color:#94a3b8}
.keys-hint kbd{font-family:inherit;font-size:.7rem;border:1px solid #cbd5e1;border-bottom-width:2px;border-radius:.25rem;padding:0 .3rem;background:#fff;color:#334155}
.progress{display:none}
.gone{position:fixed;inset:auto 1rem 1rem auto;z-index:5}

/* One slide at a time: the first until the script runs, then the current one. */
.stage .slide-frame{width:min(100cqw,100cqh * 16 / 9);aspect-ratio:16/9}
html:not(.js) .stage .slide-frame:not(:first-child){display:none}
.js .stage .slide-frame{display:none}
.js .stage .slide-frame.current{display:flex}

/* Overview: every slide as a grid of thumbnails. */
.overview .viewer{grid-template-areas:"top top" "notice notice" "strip strip" "strip strip"}
.overview .viewer-site{grid-template-areas:"top" "notice" "strip" "strip" "strip"}
.overview .stage,.overview .navbar{display:none}
.overview .filmstrip{display:grid;grid-template-columns:repeat(auto-fill,minmax(15rem,1fr));align-content:start;gap:1rem;padding:1.2rem;border:0}
.overview .viewer-site .thumb{width:auto}

/* Presenting: the slide alone, full screen. */
.presenting .topbar,.presenting .filmstrip,.presenting .navbar,.presenting .notice-area{display:none}
.presenting .viewer{grid-template-columns:minmax(0,1fr);grid-template-rows:minmax(0,1fr);grid-template-areas:"stage";background:#000}
.presenting .stage{padding:0;cursor:pointer}
.presenting .stage .slide-frame{border-radius:0;box-shadow:none}
.presenting .progress{display:block;position:fixed;left:0;right:0;bottom:0;height:4px;background:rgba(255,255,255,.12)}
.presenting .progress span{display:block;height:100%;width:0;background:#60a5fa;transition:width .2s ease}

/* ---------- a slide ---------- */
.slide-frame{position:relative;display:flex;flex-direction:column;container-type:inline-size;overflow:hidden;background:var(--slide-bg,#fff);color:var(--slide-fg,#0f172a);border-radius:var(--slide-radius,.75rem);box-shadow:0 18px 50px rgba(15,23,42,.22),0 2px 6px rgba(15,23,42,.12)}
.viewer-site .stage .slide-frame{box-shadow:0 24px 70px rgba(0,0,0,.55)}
.stage .slide-frame.more-below::after{content:"More below: scroll \2193";position:absolute;left:50%;bottom:.6rem;transform:translateX(-50%);padding:.2rem .7rem;border-radius:999px;background:rgba(15,23,42,.82);color:#f8fafc;font:600 .75rem/1.4 system-ui,sans-serif;pointer-events:none;box-shadow:0 1px 4px rgba(0,0,0,.3)}
.slide{--fs:2.05cqw;flex:1 1 auto;min-height:0;overflow:auto;padding:6.5cqw 7cqw;display:flex;flex-direction:column;gap:.85em;font-family:var(--slide-font);font-size:var(--fs);line-height:1.45;color:var(--slide-fg,#0f172a);background:var(--slide-bg,#fff);text-align:left;overflow-wrap:break-word;hyphens:auto}
.thumb-slide .slide{overflow:hidden}
.slide h1{margin:0;font-family:var(--slide-heading-font);font-size:2.35em;line-height:1.12;letter-spacing:-.015em;font-weight:750;color:var(--slide-title,#1d4ed8)}
.slide h1::after{content:"";display:block;width:2.2em;height:.12em;margin-top:.42em;border-radius:.1em;background:var(--slide-decor,#1d4ed8)}
.slide-body{display:flex;flex-direction:column;gap:.75em;min-height:0}
.slide h2{margin:.2em 0 0;font-family:var(--slide-heading-font);font-size:1.22em;line-height:1.25;font-weight:680;color:var(--slide-fg)}
.slide p{margin:0}
.slide ul{margin:0;padding-left:1.25em;display:flex;flex-direction:column;gap:.35em}
.slide li::marker{color:var(--slide-decor)}
.slide li.more{list-style:none;color:var(--slide-muted);font-style:italic}
.slide.align-center{text-align:center;align-items:center}
.slide.align-center h1::after{margin-left:auto;margin-right:auto}
.slide.align-center ul{text-align:left}
.slide.align-right{text-align:right;align-items:flex-end}
.slide.align-right h1::after{margin-left:auto}
.slide-empty{margin:auto;color:var(--slide-muted);font-size:1.1em;font-style:italic}
.block-notice{font-size:.8em;padding:.5em .8em;border:1px dashed var(--slide-border,#cbd5e1);border-radius:.4em;color:var(--slide-muted)}
.layout-title{justify-content:center}
.layout-title h1{font-size:3.6em}
.layout-title .slide-body{font-size:1.3em;color:var(--slide-muted)}
.layout-title.align-center h1::after{margin-top:.35em}
.layout-quote{justify-content:center}
.layout-quote h1{font-size:1.15em;text-transform:uppercase;letter-spacing:.08em;color:var(--slide-muted)}
.layout-quote h1::after{display:none}
.slide blockquote{margin:0;position:relative;padding-top:.3em}
.slide blockquote p{font-size:1.75em;line-height:1.3;font-weight:560;font-style:italic;color:var(--slide-fg)}
.slide blockquote p::before{content:"\201C";display:block;font-size:2.4em;line-height:.7;color:var(--slide-decor);font-style:normal}
.slide cite{display:block;margin-top:.9em;font-style:normal;font-size:.95em;font-weight:650;color:var(--slide-muted)}
.slide cite::before{content:"\2014\00a0"}
.stats{display:grid;grid-template-columns:repeat(auto-fit,minmax(0,1fr));gap:1em}
.layout-stats .slide-body{flex:1;justify-content:center}
.stat{margin:0;padding:1.1em 1.2em;border-radius:min(var(--slide-radius,.75rem),.7em);background:var(--slide-card,#f8fafc);color:var(--slide-card-fg);border:1px solid var(--slide-border,#e2e8f0)}
.stat strong{display:block;white-space:nowrap;font-size:3em;line-height:1.05;font-weight:800;letter-spacing:-.02em;color:var(--slide-card-title,#1d4ed8)}
.stat figcaption{margin-top:.35em;font-size:.95em;font-weight:560}
.columns{display:grid;grid-template-columns:repeat(auto-fit,minmax(0,1fr));gap:2.2em}
.column{display:flex;flex-direction:column;gap:.6em;padding-top:.6em;border-top:.14em solid var(--slide-border,#e2e8f0)}
.column h2{margin:0}
.media{display:grid;grid-template-columns:minmax(0,1.1fr) minmax(0,1fr);gap:2em;align-items:center;min-height:0}
.media-text{display:flex;flex-direction:column;gap:.75em}
.layout-image .slide-body{flex:1;min-height:0;justify-content:center}
.block-image{margin:0;display:flex;justify-content:center;min-height:0}
.block-image img{display:block;max-width:100%;max-height:28cqw;object-fit:contain;border-radius:min(var(--slide-radius,.75rem),.6em)}
.layout-image .block-image img{max-height:36cqw}
.image-placeholder{flex-direction:column;align-items:center;justify-content:center;gap:.5em;padding:1.2em;min-height:14cqw;border:.12em dashed var(--slide-border,#cbd5e1);border-radius:min(var(--slide-radius,.75rem),.7em);background:var(--slide-card,#f8fafc);color:var(--slide-card-fg);text-align:center}
.image-placeholder figcaption{display:flex;flex-direction:column;gap:.25em}
.placeholder-icon{width:2.6em;height:2.6em;color:var(--slide-muted)}
.placeholder-alt{font-weight:650}
.placeholder-reason,.placeholder-host{font-size:.72em;color:var(--slide-muted)}
.placeholder-host{font-family:ui-monospace,SFMono-Regular,Menlo,monospace}
.layout-raw pre.raw{margin:0;font-size:.75em;white-space:pre-wrap;color:var(--slide-fg)}

/* The editing indicator: a veil over the slide and a card naming the agent. */
.editing{position:absolute;inset:0;display:flex;align-items:flex-end;justify-content:center;padding:3cqw;background:linear-gradient(180deg,rgba(15,23,42,.08),rgba(15,23,42,.45));animation:veil 1.8s ease-in-out infinite alternate}
@keyframes veil{from{background-color:rgba(255,255,255,0)}to{background-color:rgba(255,255,255,.16)}}
.editing-card{display:flex;align-items:flex-start;gap:.8em;max-width:min(44em,92%);padding:.85em 1.1em;border-radius:.8em;background:#0f172a;color:#f8fafc;font-size:max(12px,1.45cqw);line-height:1.4;box-shadow:0 12px 30px rgba(0,0,0,.35)}
.editing-card .spinner{color:#fbbf24;font-size:1.3em;margin-top:.1em}
.editing-card strong{display:block}
.editing .prompt{margin-top:.2em;color:#cbd5e1;font-style:italic}

/* ---------- slides as their components render them (client/component-view.ts) ---------- */
.renderer-frame{position:fixed;left:0;top:0;width:1px;height:1px;border:0;opacity:0;pointer-events:none}
.component-layer{position:absolute;inset:0;z-index:1;pointer-events:none}
.component-layer-thumb{inset:auto;top:.3rem;left:.3rem;right:.3rem;aspect-ratio:16/9;border-radius:.3rem;overflow:hidden}
.slide-display{display:block;width:100%;height:100%;border:0;background:transparent}
.slide-picture{display:block;width:100%;height:100%;object-fit:contain;user-select:none}
.content-view .component-layer{display:none}
.component-layer[data-state="failed"] :is(.slide-display,.slide-picture){visibility:hidden}
.component-view .slide-frame:has(> .component-layer:not([data-state="failed"])) > .slide,
.component-view .thumb:has(> .component-layer:not([data-state="failed"])) .thumb-slide > .slide{display:none}
.component-view .slide-frame:has(> .component-layer:not([data-state="failed"])).more-below::after{display:none}
.editing,.thumb-editing{z-index:2}
.component-error{display:none}
.component-layer[data-state="failed"] .component-error{display:block;position:absolute;left:.7rem;right:.7rem;top:.7rem;padding:.55rem .75rem;border-radius:.5rem;border:1px solid #fca5a5;border-left:4px solid #dc2626;background:#fef2f2;color:#7f1d1d;font:500 .82rem/1.45 ui-sans-serif,system-ui,sans-serif;box-shadow:0 4px 14px rgba(15,23,42,.18);pointer-events:auto;overflow-wrap:anywhere;max-height:calc(100% - 1.4rem);overflow:auto}
.component-error strong{color:#991b1b}
.component-error-where{font:600 .78rem ui-monospace,SFMono-Regular,Menlo,monospace;background:#fee2e2;padding:.05rem .3rem;border-radius:.25rem}
.component-error-note{display:block;margin-top:.25rem;color:#991b1b;font-size:.74rem;font-style:italic}
.component-layer-thumb[data-state="failed"] .component-error{left:.25rem;right:auto;top:.25rem;padding:.05rem .4rem;border-width:0;border-radius:999px;background:#dc2626;color:#fff;font-size:.62rem;box-shadow:none;overflow:hidden}
.component-layer-thumb .component-error strong{color:#fff}
.component-layer-thumb .component-error :not(strong){display:none}
.segmented{display:inline-flex}
.segmented .btn{border-radius:0}
.segmented .btn:first-child{border-radius:.5rem 0 0 .5rem}
.segmented .btn:last-child{border-radius:0 .5rem .5rem 0;margin-left:-1px}
html:not(.overview):not(.presenting) .viewer-editor:has(> .controls-panel:not([hidden])){grid-template-columns:232px minmax(0,1fr) 17rem;grid-template-areas:"top top top" "notice notice notice" "strip stage panel" "strip nav panel"}
.controls-panel{grid-area:panel;overflow:auto;min-height:0;background:#f8fafc;border-left:1px solid #cbd5e1;padding:.9rem .9rem 1.2rem;display:flex;flex-direction:column;gap:.75rem;font-size:.85rem;color:#0f172a}
.overview .controls-panel,.presenting .controls-panel{display:none}
.controls-panel h2{margin:0;font-size:.95rem}
.controls-panel .panel-slide{margin:-.4rem 0 0;font-weight:600;color:#334155;white-space:nowrap;overflow:hidden;text-overflow:ellipsis}
.controls-panel .hint{font-size:.75rem}
.controls-panel .field{flex:none}
.controls-panel .field-label{overflow-wrap:anywhere}
.controls-panel .field-inline{flex-direction:row;align-items:center;gap:.5rem}
.controls-panel .field-inline input{width:auto}
.panel-note{margin:0;background:#fffbeb;color:#92400e;border:1px solid #fde68a;border-radius:.45rem;padding:.45rem .6rem;font-size:.76rem;overflow-wrap:anywhere}
.color-row{display:flex;gap:.4rem}
.color-row input[type="color"]{flex:none;width:2.4rem;min-width:2.4rem;padding:.1rem}

/* ---------- phone widths ---------- */
@media (max-width:760px){
  .viewer{grid-template-columns:minmax(0,1fr);grid-template-rows:auto auto minmax(0,1fr) auto auto;grid-template-areas:"top" "notice" "stage" "nav" "strip"}
  html:not(.overview):not(.presenting) .viewer-editor:has(> .controls-panel:not([hidden])){grid-template-columns:minmax(0,1fr);grid-template-rows:auto auto minmax(0,1fr) auto auto auto;grid-template-areas:"top" "notice" "stage" "nav" "strip" "panel"}
  .controls-panel{border-left:0;border-top:1px solid #cbd5e1;max-height:38vh}
  .component-view .stage .slide-frame:has(> .component-layer:not([data-state="failed"])){aspect-ratio:16/9;min-height:0}
  .overview .viewer{grid-template-areas:"top" "notice" "strip" "strip" "strip"}
  .topbar{flex-wrap:wrap;gap:.5rem .7rem;padding:.55rem .8rem}
  .deck-heading{flex-basis:100%;order:2;flex-wrap:wrap;gap:.35rem .6rem}
  .deck-heading h1{flex-basis:100%;white-space:normal}
  .tools{margin-left:auto;flex:0 1 auto;min-width:0;flex-wrap:wrap;justify-content:flex-end}
  .filmstrip{flex-direction:row;border-right:0;border-top:1px solid #cbd5e1;padding:.5rem .6rem}
  .thumb{width:7.5rem;flex:none}
  .viewer-site .thumb{width:7.5rem}
  .thumb-editing{display:none}
  .thumb-caption .check-label,.thumb-caption .check-badge-layout{display:none}
  .stage{padding:.75rem;overflow:auto}
  .stage-fit{container-type:inline-size;height:auto;min-height:100%;place-items:safe center}
  .stage .slide-frame{width:100%;aspect-ratio:auto;min-height:calc(100cqw * 9 / 16)}
  .stage .slide{--fs:max(13px,2.05cqw);overflow:visible;padding:max(18px,6cqw) max(18px,6cqw)}
  .stage .layout-title h1{font-size:2.3em}
  .stage .stats{grid-template-columns:repeat(auto-fit,minmax(6.5em,1fr));gap:.7em}
  .stage .stat{padding:.8em .9em}
  .stage .stat strong{font-size:2.3em}
  .stage .columns,.stage .media{grid-template-columns:minmax(0,1fr);gap:1.2em}
  .stage .block-image img{max-height:none}
  .keys-hint{display:none}
  .overview .filmstrip{grid-template-columns:repeat(auto-fill,minmax(9rem,1fr))}
  .overview .thumb{width:auto}
}

/* ---------- not found ---------- */
body.plain{display:grid;place-items:center;min-height:100dvh;padding:1.5rem;background:#f1f5f9}
.message-card{max-width:32rem;background:#fff;border-radius:1rem;padding:2.2rem 2.4rem;box-shadow:0 10px 30px rgba(15,23,42,.1);color:#334155;line-height:1.55}
.message-card .status{font-size:.8rem;font-weight:700;letter-spacing:.08em;text-transform:uppercase;color:#64748b}
.message-card h1{margin:.3rem 0 .7rem;font-size:1.45rem;color:#0f172a}
.message-card p{margin:.5rem 0}
.message-card code{font-size:.88em;background:#f1f5f9;padding:.1rem .35rem;border-radius:.25rem;overflow-wrap:anywhere}

/* ---------- dashboard ---------- */
body.dashboard-page{background:#f1f5f9}
.dash-top{position:sticky;top:0;z-index:4;display:flex;align-items:center;flex-wrap:wrap;gap:.6rem 1rem;padding:.7rem 1.2rem;background:#0f172a;color:#f8fafc}
.dash-top h1{font-size:1.05rem;margin:0;font-weight:680}
.dash-top .meta{display:flex;gap:.5rem;flex-wrap:wrap;align-items:center;font-size:.8rem;color:#cbd5e1}
.dash-top .meta a{color:#bfdbfe}
.dash-top .chip{background:#1e293b;color:#e2e8f0;white-space:normal}
.dash-top .spacer{flex:1}
.dash{display:grid;grid-template-columns:minmax(17rem,22rem) minmax(0,1fr);gap:1.2rem;padding:1.2rem;max-width:1500px;margin:0 auto;align-items:start}
.dash-actions{display:flex;flex-direction:column;gap:1rem;min-width:0}
.dash-data{display:flex;flex-direction:column;gap:1.2rem;min-width:0}
.card{background:#fff;border:1px solid #e2e8f0;border-radius:.8rem;box-shadow:0 1px 2px rgba(15,23,42,.05);min-width:0}
.card>h2,.card-head{display:flex;align-items:center;gap:.6rem;margin:0;padding:.75rem 1rem;border-bottom:1px solid #e2e8f0;font-size:.95rem}
.card-head h2{margin:0;font-size:.95rem}
.card-head .count{font-size:.78rem;font-weight:500;color:#64748b}
.card-head .actions{margin-left:auto;display:flex;gap:.4rem}
.card-body{padding:.85rem 1rem}
.form{display:flex;flex-direction:column;gap:.55rem}
.form-row{display:flex;gap:.5rem;align-items:end;flex-wrap:wrap}
.field{display:flex;flex-direction:column;gap:.2rem;font-size:.75rem;font-weight:600;color:#475569;flex:1;min-width:6rem}
.field input,.field select{font:inherit;font-size:.85rem;font-weight:400;color:#0f172a;padding:.4rem .5rem;border:1px solid #cbd5e1;border-radius:.45rem;background:#fff;min-width:0;width:100%}
.field input:focus,.field select:focus{border-color:#2563eb;outline:2px solid #bfdbfe;outline-offset:0}
.hint{font-size:.75rem;color:#64748b;margin:0}
.card>.table-wrap:last-child{border-radius:0 0 .8rem .8rem}
/* Shadows at an edge the table scrolls past (white covers them at the ends): a wide table shows that it scrolls. */
.table-wrap{overflow:auto;background:linear-gradient(90deg,#fff 30%,rgba(255,255,255,0)) 0 0/2rem 100% no-repeat local,linear-gradient(270deg,#fff 30%,rgba(255,255,255,0)) 100% 0/2rem 100% no-repeat local,radial-gradient(farthest-side at 0 50%,rgba(15,23,42,.2),transparent) 0 0/.75rem 100% no-repeat scroll,radial-gradient(farthest-side at 100% 50%,rgba(15,23,42,.2),transparent) 100% 0/.75rem 100% no-repeat scroll}
table.data{border-collapse:collapse;width:100%;font-size:.82rem}
table.data th{position:sticky;top:0;background:#f8fafc;text-align:left;font-weight:650;color:#475569;font-size:.72rem;text-transform:uppercase;letter-spacing:.04em;padding:.5rem .7rem;border-bottom:1px solid #e2e8f0;white-space:nowrap}
table.data td{padding:.45rem .7rem;border-bottom:1px solid #f1f5f9;vertical-align:middle}
table.data tr:last-child td{border-bottom:0}
table.data tr.selected td{background:#eff6ff}
table.data td.num{text-align:right;font-variant-numeric:tabular-nums}
table.data td.nowrap{white-space:nowrap}
table.data td.actions{white-space:nowrap;text-align:right}
table.data td.actions .btn+.btn{margin-left:.3rem}
.mono{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8em}
.key-value{font-family:ui-monospace,SFMono-Regular,Menlo,Consolas,monospace;font-size:.8rem;background:#f1f5f9;padding:.1rem .35rem;border-radius:.3rem;white-space:nowrap}
.key-value.revealed{background:#fef9c3}
.muted{color:#64748b}
.empty{padding:1rem;color:#64748b;font-size:.85rem;margin:0}
.status{display:inline-block;min-width:2.6rem;text-align:center;padding:.05rem .4rem;border-radius:.35rem;font-weight:650;font-size:.78rem;font-variant-numeric:tabular-nums}
.status-2{background:#dcfce7;color:#166534}.status-3{background:#e0f2fe;color:#075985}.status-4{background:#fef3c7;color:#92400e}.status-5{background:#fee2e2;color:#991b1b}
.badge{display:inline-block;padding:.05rem .45rem;border-radius:999px;font-size:.72rem;font-weight:650}
.badge-processing{background:#dbeafe;color:#1e40af}.badge-completed{background:#dcfce7;color:#166534}.badge-failed{background:#fee2e2;color:#991b1b}
.badge-active{background:#dcfce7;color:#166534}.badge-revoked{background:#f1f5f9;color:#64748b}
.results{display:flex;flex-direction:column;gap:.5rem;max-height:18rem;overflow:auto}
.result{border:1px solid #e2e8f0;border-left-width:4px;border-radius:.45rem;padding:.45rem .6rem;font-size:.78rem;background:#fff}
.result.ok{border-left-color:#22c55e}.result.error{border-left-color:#ef4444;background:#fef2f2}
.result .what{display:flex;gap:.4rem;align-items:center;font-weight:650}
.result pre{margin:.35rem 0 0;white-space:pre-wrap;overflow-wrap:anywhere;font-size:.74rem;max-height:9rem;overflow:auto;color:#334155}
.filters{display:flex;gap:.5rem;flex-wrap:wrap;align-items:end;padding:.7rem 1rem;border-bottom:1px solid #e2e8f0;background:#fcfdfe}
.filters .field{flex:0 1 11rem}
.details{margin:0;padding:.8rem 1rem;border-top:1px solid #e2e8f0;background:#f8fafc}
.details h3{margin:0 0 .4rem;font-size:.85rem}
.details pre{margin:0;font-size:.78rem;white-space:pre-wrap;overflow-wrap:anywhere}
.live-dot{display:inline-flex;align-items:center;gap:.35rem;font-size:.75rem;color:#94a3b8}
.live-dot::before{content:"";width:.55rem;height:.55rem;border-radius:50%;background:#64748b}
.live-dot.on{color:#bbf7d0}.live-dot.on::before{background:#22c55e}
@media (max-width:900px){
  .dash{grid-template-columns:minmax(0,1fr);padding:.8rem;gap:.9rem}
  table.data .hide-narrow{display:none}
  table.data .mono{word-break:break-all}
  table.data .key-value{white-space:normal;word-break:break-all}
  table.data td.actions{white-space:normal;text-align:left}
  table.data td.actions .btn{margin:.15rem .3rem .15rem 0}
  table.data td.actions .btn+.btn{margin-left:0}
  table.data td,table.data th{padding:.45rem .5rem}
  .filters .field{flex:1 1 9rem}
}
`
