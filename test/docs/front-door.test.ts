/**
 * What a newcomer meets at the front door, held to what works: every npx
 * line of the docs runs without a prompt and never asks the registry for
 * our names, the README and the install guide give one install sequence,
 * the packed tarball is ignored by git, npm 11's install-scripts notice is
 * explained, and the README says the spec it cites is not shipped.
 */
import { execFileSync } from 'node:child_process'
import { readdirSync, readFileSync } from 'node:fs'
import { join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const read = (file: string) => readFileSync(join(ROOT, file), 'utf8')

function markdownFiles(dir: string): string[] {
  return readdirSync(join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.md'))
    .map((file) => relative(ROOT, join(ROOT, dir, file)))
}

/** The shell commands of a markdown file's fenced `sh` blocks, a line each (comments dropped, continuations joined). */
function shellLines(text: string): string[] {
  const blocks = [...text.matchAll(/```(?:sh|bash|shell)\n([\s\S]*?)```/g)].map((match) => match[1]!)
  return blocks.flatMap((block) =>
    block
      .replace(/\\\n\s*/g, ' ')
      .split('\n')
      .map((line) => line.replace(/\s+#.*$/, '').trim())
      .filter((line) => line !== '' && !line.startsWith('#')),
  )
}

const FILES = ['README.md', ...markdownFiles('docs')]

describe('the front door', () => {
  it('runs our bins with npx only from an install (--no-install) or a tarball path with --yes', () => {
    const npxLines = FILES.flatMap((file) =>
      shellLines(read(file))
        .filter((line) => /\bnpx\b.*\bpresentation-(emulator|conformance)\b/.test(line))
        .map((line) => ({ file, line })),
    )
    expect(npxLines.length).toBeGreaterThan(3)
    const bad = npxLines.filter(({ line }) => !/npx --no-install /.test(line) && !/npx --yes -p \.\//.test(line))
    expect(bad).toEqual([])
  })

  it('gives one install sequence: the README and the install guide both install with npm install, then pack', () => {
    for (const file of ['README.md', 'docs/install.md']) {
      const lines = shellLines(read(file))
      const pack = lines.findIndex((line) => line.startsWith('npm pack'))
      expect(pack, `${file} packs`).toBeGreaterThan(0)
      expect(lines[pack - 1], `${file}: the install before npm pack`).toBe('npm install')
      expect(
        lines.filter((line) => /\bnpm ci\b/.test(line)),
        `${file} has no second install`,
      ).toEqual([])
    }
  })

  it('ignores the tarball npm pack writes', () => {
    const ignored = execFileSync('git', ['check-ignore', 'presentation-emulator-0.1.0.tgz'], { cwd: ROOT }).toString().trim()
    expect(ignored).toBe('presentation-emulator-0.1.0.tgz')
  })

  it("explains npm 11's install-scripts notice for each package it names", () => {
    const install = read('docs/install.md')
    const section = install.slice(install.indexOf("## npm 11's install-scripts notice"))
    expect(section).toContain('allowScripts')
    for (const name of ['esbuild', 'msw', '@scarf/scarf', '`prepare`']) expect(section).toContain(name)
  })

  it('says the spec the README cites is not shipped, and what stands for it', () => {
    const intro = read('README.md').split('\n## ')[0]!
    expect(intro).toMatch(/`service-api\.md`, is not shipped/)
    expect(intro).toContain('[reference/api.md](reference/api.md)')
  })
})
