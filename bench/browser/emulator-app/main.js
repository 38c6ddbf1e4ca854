// A browser app whose API calls are answered by the emulator's handlers under msw's setupWorker.
import { setupWorker } from 'msw/browser'
import { createEmulator } from 'presentation-emulator'

const emulator = createEmulator({ baseUrl: `${location.origin}/api/v1` })
await setupWorker(...emulator.handlers).start({ quiet: true, onUnhandledRequest: 'bypass' })
const response = await fetch('/api/v1/projects', { headers: { authorization: 'Bearer pres_test_alice_acme' } })
const body = await response.json()
window.__firstAnswer = performance.now()
window.__status = response.status
document.getElementById('out').textContent = `${response.status} ${body.projects.length} projects`
