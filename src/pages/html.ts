import { jsonTextDepthExceeded, MAX_JSON_DEPTH } from '../core/json-depth.js'
import type { ProjectConfig, SlideFiles } from '../schemas/index.js'

/** Escapes text for HTML element content and attribute values. */
export function escapeHtml(text: string): string {
  return text
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/"/g, '&quot;')
    .replace(/'/g, '&#39;')
}

const BASE_CSS = `
*{box-sizing:border-box}body{margin:0;font-family:var(--font,system-ui,sans-serif);background:#f1f5f9;color:#0f172a}
header.bar{display:flex;gap:1rem;align-items:baseline;padding:1rem 1.5rem;background:#0f172a;color:#f8fafc}
header.bar h1{font-size:1.1rem;margin:0}header.bar .meta{opacity:.75;font-size:.85rem}
main{padding:1.5rem;display:grid;gap:1.5rem;max-width:1100px;margin:0 auto}
.slide-frame{position:relative;background:var(--background,#fff);color:var(--foreground,#0f172a);border:1px solid var(--border,#e2e8f0);border-radius:var(--radius,.5rem);box-shadow:0 1px 3px rgba(0,0,0,.08);aspect-ratio:16/9;overflow:hidden;display:flex;flex-direction:column}
.slide-frame .slide{flex:1;padding:2.5rem 3rem;overflow:auto}
.slide h1{margin:0 0 1rem;font-size:2rem;color:var(--primary,#1d4ed8)}
.slide blockquote{font-size:1.3rem;font-style:italic;margin:1rem 0}.slide cite{display:block;margin-top:.5rem;font-size:.9rem}
.slide .stats{display:flex;gap:2rem}.slide .stat strong{display:block;font-size:2.2rem;color:var(--primary,#1d4ed8)}
.slide-frame footer{padding:.4rem 1rem;font-size:.8rem;background:var(--muted,#f1f5f9);color:var(--muted-foreground,#64748b)}
.editing{position:absolute;inset:0;background:rgba(15,23,42,.55);color:#fff;display:flex;flex-direction:column;align-items:center;justify-content:center;gap:.5rem;text-align:center;padding:1rem}
.editing .spinner{width:2rem;height:2rem;border:3px solid rgba(255,255,255,.35);border-top-color:#fff;border-radius:50%;animation:spin 1s linear infinite}
@keyframes spin{to{transform:rotate(360deg)}}
.notice{padding:2rem;text-align:center;color:#475569}
table{border-collapse:collapse;width:100%;background:#fff;font-size:.85rem}th,td{border:1px solid #e2e8f0;padding:.35rem .5rem;text-align:left;vertical-align:top}
section.panel h2{font-size:1rem;margin:.5rem 0}
pre{white-space:pre-wrap;font-size:.8rem}
`

/** A complete HTML document. */
export function htmlDocument(title: string, body: string, options: { style?: string; script?: string } = {}): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
<style>${BASE_CSS}${options.style ?? ''}</style>
</head>
<body>
${body}
${options.script === undefined ? '' : `<script>${options.script}</script>`}
</body>
</html>
`
}

/** CSS custom properties from a project's theme colours and design tokens. */
export function themeStyle(config: ProjectConfig): string {
  const vars: string[] = []
  const colors = config.theme?.colors.default
  if (colors !== undefined) {
    for (const [name, value] of Object.entries(colors)) if (value !== undefined) vars.push(`--${name}:${value}`)
  }
  if (config.theme?.radius) vars.push(`--radius:${config.theme.radius}`)
  if (config.theme?.fontFamily) vars.push(`--font:${JSON.stringify(config.theme.fontFamily)},system-ui,sans-serif`)
  for (const token of config.tokens?.palette ?? []) vars.push(`${token.name}:${token.value}`)
  for (const token of config.tokens?.fonts ?? []) vars.push(`${token.name}:${JSON.stringify(token.family)}`)
  // Values come from validated config, but never let one close the rule.
  return `:root{${vars.map((v) => v.replace(/[{}<>;]/g, '')).join(';')}}`
}

function text(value: unknown): string {
  return typeof value === 'string' ? escapeHtml(value) : ''
}

function renderBlock(block: unknown): string {
  if (typeof block !== 'object' || block === null) return ''
  const b = block as Record<string, unknown>
  switch (b.type) {
    case 'heading':
      return `<h2>${text(b.text)}</h2>`
    case 'text':
      return `<p>${text(b.text)}</p>`
    case 'bullets':
      return Array.isArray(b.items) ? `<ul>${b.items.map((item) => `<li>${text(item)}</li>`).join('')}</ul>` : ''
    case 'quote':
      return `<blockquote><p>${text(b.text)}</p><cite>${text(b.author)}</cite></blockquote>`
    case 'stat':
      return `<figure class="stat"><strong>${text(b.value)}</strong><figcaption>${text(b.label)}</figcaption></figure>`
    default:
      return typeof b.text === 'string' ? `<p>${text(b.text)}</p>` : ''
  }
}

/**
 * A slide rendered from its `slide.content.json` (`{title, blocks}`); content
 * of another shape is shown as formatted JSON, and text is always escaped.
 */
export function renderSlideContent(files: SlideFiles): string {
  // Writes refuse deeper files; this guard keeps any page from overflowing its stack all the same.
  if (jsonTextDepthExceeded(files['slide.content.json']) !== -1) {
    return `<div class="slide"><p class="notice">This slide's content is nested deeper than ${MAX_JSON_DEPTH} levels and is not shown.</p></div>`
  }
  let content: unknown
  try {
    content = JSON.parse(files['slide.content.json'])
  } catch {
    return `<div class="slide"><pre>${escapeHtml(files['slide.content.json'])}</pre></div>`
  }
  if (typeof content !== 'object' || content === null || Array.isArray(content)) {
    return `<div class="slide"><pre>${escapeHtml(JSON.stringify(content, null, 2))}</pre></div>`
  }
  const c = content as Record<string, unknown>
  const blocks = Array.isArray(c.blocks) ? c.blocks : []
  const stats = blocks.filter((block) => (block as { type?: unknown })?.type === 'stat')
  const others = blocks.filter((block) => (block as { type?: unknown })?.type !== 'stat')
  return `<div class="slide">${typeof c.title === 'string' && c.title !== '' ? `<h1>${text(c.title)}</h1>` : ''}${others.map(renderBlock).join('')}${stats.length > 0 ? `<div class="stats">${stats.map(renderBlock).join('')}</div>` : ''}</div>`
}
