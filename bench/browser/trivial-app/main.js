// The same app with one trivial msw handler: the anchor of the bundle and navigation figures.
import { http, HttpResponse } from 'msw'
import { setupWorker } from 'msw/browser'

await setupWorker(http.get('/api/v1/projects', () => HttpResponse.json({ projects: [] }))).start({
  quiet: true,
  onUnhandledRequest: 'bypass',
})
const response = await fetch('/api/v1/projects', { headers: { authorization: 'Bearer pres_test_alice_acme' } })
const body = await response.json()
window.__firstAnswer = performance.now()
window.__status = response.status
document.getElementById('out').textContent = `${response.status} ${body.projects.length} projects`
