/**
 * `pres_••••••••lice`: an API key as the dashboard shows it, the prefix and
 * the last four characters only. One function for the page the server
 * renders and the dashboard's own script (which bundles it).
 */
export function maskKey(value: string): string {
  const prefix = value.startsWith('pres_') ? 'pres_' : ''
  const rest = value.slice(prefix.length)
  return `${prefix}${'•'.repeat(8)}${rest.length > 6 ? rest.slice(-4) : ''}`
}
