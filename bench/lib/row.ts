/** One line of the results table. */
export interface Row {
  measure: string
  /** The emulator's figure. */
  emulator: string
  /** The anchor it is compared with, and its figure. */
  baseline: string
  /** The emulator relative to the anchor, measured in the same run. */
  ratio: string
  target: string
  /** Undefined: no target (a figure for information), or skipped. */
  met: boolean | undefined
  note?: string
}

export const ratio = (value: number, digits = 2) => `${value.toFixed(digits)}x`

export function skipped(measure: string, target: string, note: string): Row {
  return { measure, emulator: 'skipped', baseline: '', ratio: '', target, met: undefined, note }
}
