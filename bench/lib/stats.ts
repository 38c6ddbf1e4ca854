/** The median of `values` (the mean of the two middle ones for an even count). */
export function median(values: readonly number[]): number {
  if (values.length === 0) return Number.NaN
  const sorted = [...values].sort((a, b) => a - b)
  const mid = sorted.length >> 1
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2
}

/**
 * Runs each measure of `measures` `rounds` times, alternating between them
 * (A B A B …, starting with another one each round), so a noisy neighbour
 * weighs on all of them alike; returns every run's value by name.
 */
export async function alternate<K extends string>(
  rounds: number,
  measures: Record<K, () => Promise<number>>,
): Promise<Record<K, number[]>> {
  const names = Object.keys(measures) as K[]
  const runs = Object.fromEntries(names.map((name) => [name, [] as number[]])) as Record<K, number[]>
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < names.length; i++) {
      const name = names[(i + round) % names.length]!
      runs[name].push(await measures[name]())
    }
  }
  return runs
}

/**
 * The median of the ratios `a[i] / b[i]` of runs made side by side (by
 * `alternate`): each pair saw the machine at the same moment, so a neighbour
 * that slows a stretch of the runs moves both sides of its pairs, not the
 * ratio, as it would move the ratio of two medians.
 */
export function pairedRatio(a: readonly number[], b: readonly number[]): number {
  return median(pairedRatios(a, b))
}

/** The ratios `a[i] / b[i]` of runs made side by side (by `alternate`), one per pair, in the order of the runs. */
export function pairedRatios(a: readonly number[], b: readonly number[]): number[] {
  return a.map((value, i) => value / b[i]!)
}

/** A number for the table: thousands separated, `digits` decimals. */
export function fmt(value: number, digits = 0): string {
  if (!Number.isFinite(value)) return 'n/a'
  return value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits })
}

export function kb(bytes: number, digits = 1): string {
  return `${fmt(bytes / 1024, digits)} KB`
}

export function mb(bytes: number, digits = 2): string {
  return `${fmt(bytes / 1024 / 1024, digits)} MB`
}
