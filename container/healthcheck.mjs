// The image's HEALTHCHECK (Dockerfile): GET /_emulator/health on the container's own port, with the
// admin token when one is set. Exit 0 when it answers 200 {"status":"ok"}, 1 otherwise. It reads the
// settings from the environment (PRESENTATION_EMULATOR_PORT, PRESENTATION_EMULATOR_ADMIN_TOKEN): give
// them with -e, not as flags, for the check to see them.
const port = process.env.PRESENTATION_EMULATOR_PORT || '4010'
const token = process.env.PRESENTATION_EMULATOR_ADMIN_TOKEN
try {
  const response = await fetch(`http://127.0.0.1:${port}/_emulator/health`, {
    headers: token ? { authorization: `Bearer ${token}` } : {},
    signal: AbortSignal.timeout(4000),
  })
  const body = await response.json().catch(() => undefined)
  if (response.status !== 200 || body?.status !== 'ok') {
    console.error(`unhealthy: GET /_emulator/health answered ${response.status}`)
    process.exit(1)
  }
  console.log(`healthy: presentation-emulator ${body.version}`)
} catch (error) {
  console.error(`unhealthy: ${error.message}`)
  process.exit(1)
}
