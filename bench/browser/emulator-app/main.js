// A browser app whose API calls are answered by the emulator's handlers under msw's setupWorker,
// started as the browser recipe of docs/guides/browsers.md does: the worker registers while the emulator loads.
import { setupWorker } from 'msw/browser'

const worker = setupWorker()
const [emulator] = await Promise.all([
  import('presentation-emulator').then(({ createEmulator }) => createEmulator({ baseUrl: `${location.origin}/api/v1` })),
  worker.start({ quiet: true, onUnhandledRequest: 'bypass' }),
])
worker.use(...emulator.handlers)
const response = await fetch('/api/v1/projects', { headers: { authorization: 'Bearer pres_test_alice_acme' } })
const body = await response.json()
window.__firstAnswer = performance.now()
window.__status = response.status
document.getElementById('out').textContent = `${response.status} ${body.projects.length} projects`
