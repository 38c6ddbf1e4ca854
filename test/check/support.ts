/**
 * What the Node slide checker's tests share: slides as files, a check's
 * input, and the processes this test process has started (Linux's `/proc`),
 * to show that the checker leaves none behind.
 */
import { readdirSync, readFileSync } from 'node:fs'
import type { SlideCheckInput } from '../../src/model/slide-checker.js'
import type { SlideFiles } from '../../src/schemas/index.js'

export const slide = (tsx: string, content: unknown = { title: 'Quarterly review' }, controls: unknown = { controls: [] }): SlideFiles => ({
  'slide.tsx': tsx,
  'slide.content.json': JSON.stringify(content),
  'slide.controls.json': JSON.stringify(controls),
})

export const input = (tsx: string, content?: unknown, controls?: unknown): SlideCheckInput => ({
  files: slide(tsx, content, controls),
  config: {},
})

/** A component showing `expression` (JSX inside a `<p id="out">`). */
export const showing = (expression: string, before = ''): SlideCheckInput =>
  input(`${before}\nexport default function Probe() {\n  return <p id="out">{${expression}}</p>;\n}\n`)

/** The ids of the running processes whose parent is this one (empty where there is no `/proc`). */
export function childPids(): number[] {
  const pids: number[] = []
  let entries: string[]
  try {
    entries = readdirSync('/proc')
  } catch {
    return pids
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8')
      // pid (comm) state ppid …: the command may hold spaces and parentheses, so read after the last ')'.
      const [state, ppid] = stat.slice(stat.lastIndexOf(')') + 2).split(' ')
      if (Number(ppid) === process.pid && state !== 'Z') pids.push(Number(entry))
    } catch {
      // Gone meanwhile.
    }
  }
  return pids
}

/** Whether a process is running (not ended, not a zombie waiting for its parent). */
export function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8')
    return stat.slice(stat.lastIndexOf(')') + 2)[0] !== 'Z'
  } catch {
    return false
  }
}
