import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import GithubSlugger, { slug } from 'github-slugger'
import { describe, expect, it } from 'vitest'

/**
 * The README is a front door and docs/ holds the rest: every docs page is
 * reachable from README.md or docs/README.md (so at most two links deep),
 * every relative link and `#anchor` in them resolves (anchors as GitHub makes
 * them, with github-slugger), every heading's anchor is unique in its file,
 * and the package ships what the README links to.
 */

const ROOT = fileURLToPath(new URL('../..', import.meta.url))

function markdownFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name)
    if (entry.isDirectory()) return markdownFiles(path)
    return entry.name.endsWith('.md') ? [path] : []
  })
}

const DOCS = markdownFiles(join(ROOT, 'docs')).map((path) => relative(ROOT, path))
const FILES = ['README.md', ...DOCS]

/** The lines of a markdown file outside fenced code blocks (fences may be indented, in lists). */
function proseLines(text: string): string[] {
  const out: string[] = []
  let fence: string | undefined
  for (const line of text.split('\n')) {
    const marker = /^ *(`{3,}|~{3,})/.exec(line)?.[1]
    if (marker !== undefined) {
      if (fence === undefined) fence = marker
      else if (marker[0] === fence[0] && marker.length >= fence.length && line.trim() === marker) fence = undefined
      continue
    }
    if (fence === undefined) out.push(line)
  }
  return out
}

/** The text GitHub renders for a heading: code spans and links reduced to their text. */
function headingText(raw: string): string {
  return raw.replace(/\[([^\]]*)\]\([^)]*\)/g, '$1').replace(/`/g, '')
}

function headings(file: string): string[] {
  return proseLines(readFileSync(join(ROOT, file), 'utf8'))
    .map((line) => /^#{1,6} +(.*?) *#* *$/.exec(line)?.[1])
    .filter((text): text is string => text !== undefined)
    .map(headingText)
}

/** The anchors GitHub gives a file's headings, duplicates suffixed `-1`, `-2`… */
function anchors(file: string): Set<string> {
  const slugger = new GithubSlugger()
  return new Set(headings(file).map((text) => slugger.slug(text)))
}

/** Every inline link `[text](target)` of a file's prose, inline code left out. */
function links(file: string): string[] {
  const prose = proseLines(readFileSync(join(ROOT, file), 'utf8'))
    .join('\n')
    .replace(/`[^`\n]*`/g, '')
  return [...prose.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)].map((match) => match[1]!)
}

const isRelative = (target: string) => !/^[a-z][a-z0-9+.-]*:/i.test(target) && !target.startsWith('//')

/** The file a relative link points to, from the repository root (a directory means its README.md). */
function linkedFile(from: string, target: string): string {
  const path = target.split('#')[0]!
  if (path === '') return from
  const full = resolve(ROOT, dirname(from), decodeURIComponent(path))
  const file = existsSync(full) && statSync(full).isDirectory() ? join(full, 'README.md') : full
  return relative(ROOT, file)
}

describe('the README and docs/', () => {
  it('has docs pages to check, and an index', () => {
    expect(DOCS).toContain(join('docs', 'README.md'))
    expect(DOCS.length).toBeGreaterThan(10)
  })

  it.each(FILES)('%s: every relative link and #anchor resolves', (file) => {
    const broken: string[] = []
    for (const target of links(file).filter(isRelative)) {
      const linked = linkedFile(file, target)
      if (!existsSync(join(ROOT, linked))) {
        broken.push(`${target}: no file ${linked}`)
        continue
      }
      const anchor = target.split('#')[1]
      if (anchor === undefined) continue
      if (!linked.endsWith('.md')) broken.push(`${target}: an anchor into a file that is not markdown`)
      else if (!anchors(linked).has(decodeURIComponent(anchor)))
        broken.push(`${target}: ${linked} has no heading with the anchor #${anchor}`)
    }
    expect(broken).toEqual([])
  })

  it.each(FILES)('%s: every heading has an anchor of its own', (file) => {
    const seen = new Map<string, number>()
    for (const text of headings(file)) {
      const anchor = slug(text)
      seen.set(anchor, (seen.get(anchor) ?? 0) + 1)
    }
    expect([...seen].filter(([, count]) => count > 1).map(([anchor]) => anchor)).toEqual([])
  })

  it('links every docs page from README.md or docs/README.md (no orphans, at most two links deep)', () => {
    const index = join('docs', 'README.md')
    const fromReadme = new Set(
      links('README.md')
        .filter(isRelative)
        .map((target) => linkedFile('README.md', target)),
    )
    const fromIndex = new Set(
      links(index)
        .filter(isRelative)
        .map((target) => linkedFile(index, target)),
    )
    expect(fromReadme.has(index)).toBe(true)
    const orphans = DOCS.filter((file) => file !== index && !fromReadme.has(file) && !fromIndex.has(file))
    expect(orphans, 'link these pages from docs/README.md').toEqual([])
  })

  it('ships in the package every file the README links to', () => {
    const files = (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { files: string[] }).files
    const shipped = (path: string) => files.some((entry) => path === entry || path.startsWith(`${entry}/`))
    const linked = links('README.md')
      .filter(isRelative)
      .map((target) => linkedFile('README.md', target).split('\\').join('/'))
    expect(linked.length).toBeGreaterThan(0)
    expect(linked.filter((path) => !shipped(path))).toEqual([])
  })
})
