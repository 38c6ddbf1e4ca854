/**
 * The dashboard in the browser (served as `/_emulator/assets/dashboard.js`):
 * every button and form calls the control plane with `fetch` and a JSON
 * body on the page's own origin (never an HTML form post), sending the admin
 * token from `?token=` as `Authorization: Bearer`, and shows the answer.
 * The tables follow the emulator over server-sent events.
 */
import { maskKey } from '../key-mask.js'

interface CallResult {
  ok: boolean
  status: number
  body: unknown
}

const token = new URLSearchParams(location.search).get('token') ?? undefined

function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const element = document.getElementById(id)
  if (element === null) throw new Error(`the dashboard has no #${id}`)
  return element as T
}

/** A copy of a control-plane answer with every `apiKey` value masked, for display. */
function masked(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(masked)
  if (typeof body !== 'object' || body === null) return body
  return Object.fromEntries(
    Object.entries(body).map(([key, value]) => [key, key === 'apiKey' && typeof value === 'string' ? maskKey(value) : masked(value)]),
  )
}

async function call(method: string, path: string, body?: unknown): Promise<CallResult> {
  const headers: Record<string, string> = { accept: 'application/json' }
  if (body !== undefined) headers['content-type'] = 'application/json'
  if (token !== undefined) headers.authorization = `Bearer ${token}`
  try {
    const response = await fetch(path, {
      method,
      headers,
      body: body === undefined ? undefined : JSON.stringify(body),
      cache: 'no-store',
      credentials: 'same-origin',
    })
    const text = await response.text()
    let parsed: unknown = text
    try {
      parsed = text === '' ? null : JSON.parse(text)
    } catch {
      // Not JSON: shown as text.
    }
    return { ok: response.ok, status: response.status, body: parsed }
  } catch (error) {
    return { ok: false, status: 0, body: `The request failed: ${String(error)}` }
  }
}

function start(): void {
  const results = byId('results')
  const live = byId('live')
  const details = byId('request-details')
  const detailsId = byId('request-details-id')
  const detailsBody = byId('request-details-body')
  const filters = byId<HTMLFormElement>('journal-filters')
  const failMessage = byId<HTMLInputElement>('fail-message')
  /** Key values revealed so far, by key id (kept across live updates). */
  const revealed = new Map<string, string>()
  let selectedRequest: string | undefined

  function report(label: string, method: string, path: string, result: CallResult, secret?: string): void {
    results.querySelector('.hint')?.remove()
    const item = document.createElement('div')
    item.className = `result ${result.ok ? 'ok' : 'error'}`
    item.dataset.testid = 'result'
    const what = document.createElement('div')
    what.className = 'what'
    const status = document.createElement('span')
    status.className = `status status-${String(result.status).charAt(0)}`
    status.textContent = result.status === 0 ? 'failed' : String(result.status)
    const text = document.createElement('span')
    text.textContent = label
    what.append(status, text)
    const request = document.createElement('div')
    request.className = 'muted mono'
    request.textContent = `${method} ${path}`
    const pre = document.createElement('pre')
    pre.textContent = typeof result.body === 'string' ? result.body : JSON.stringify(masked(result.body), null, 2)
    item.append(what, request, pre)
    if (secret !== undefined) item.append(secretControls(secret))
    results.prepend(item)
    while (results.children.length > 8) results.lastElementChild?.remove()
  }

  /** Reveal and copy buttons for a key value held only in this page. */
  function secretControls(secret: string): HTMLElement {
    const row = document.createElement('div')
    row.className = 'form-row'
    const value = document.createElement('code')
    value.className = 'key-value'
    value.textContent = maskKey(secret)
    const reveal = document.createElement('button')
    reveal.type = 'button'
    reveal.className = 'btn btn-small'
    reveal.textContent = 'Reveal'
    reveal.addEventListener('click', () => {
      const shown = value.classList.toggle('revealed')
      value.textContent = shown ? secret : maskKey(secret)
      reveal.textContent = shown ? 'Hide' : 'Reveal'
    })
    const copy = document.createElement('button')
    copy.type = 'button'
    copy.className = 'btn btn-small'
    copy.textContent = 'Copy'
    copy.addEventListener('click', () => void copyText(secret).then((ok) => flash(copy, ok ? 'Copied' : 'Copy failed')))
    row.append(value, reveal, copy)
    return row
  }

  async function act(label: string, method: string, path: string, body?: unknown): Promise<CallResult> {
    const result = await call(method, path, body)
    report(label, method, path, result)
    return result
  }

  function flash(button: HTMLElement, text: string): void {
    const before = button.dataset.label ?? button.textContent ?? ''
    button.dataset.label = before
    button.textContent = text
    setTimeout(() => {
      button.textContent = before
      delete button.dataset.label
    }, 1500)
  }

  async function copyText(text: string): Promise<boolean> {
    try {
      await navigator.clipboard.writeText(text)
      return true
    } catch {
      // No clipboard permission: select the text in a hidden field and copy it the old way.
      const area = document.createElement('textarea')
      area.value = text
      area.className = 'visually-hidden'
      document.body.append(area)
      area.select()
      const ok = document.execCommand('copy')
      area.remove()
      return ok
    }
  }

  /** A destructive button asks for a second click within 4 s. */
  function confirmed(button: HTMLElement): boolean {
    if (button.classList.contains('confirming')) {
      button.classList.remove('confirming')
      button.textContent = button.dataset.label ?? button.textContent
      delete button.dataset.label
      return true
    }
    button.dataset.label = button.textContent ?? ''
    button.classList.add('confirming')
    button.textContent = 'Click again to confirm'
    setTimeout(() => {
      if (!button.classList.contains('confirming')) return
      button.classList.remove('confirming')
      button.textContent = button.dataset.label ?? ''
      delete button.dataset.label
    }, 4000)
    return false
  }

  async function keyValue(keyId: string): Promise<string | undefined> {
    const known = revealed.get(keyId)
    if (known !== undefined) return known
    const path = `/_emulator/keys/${encodeURIComponent(keyId)}`
    const result = await call('GET', path)
    if (!result.ok) {
      report(`Read key ${keyId}`, 'GET', path, result)
      return undefined
    }
    return (result.body as { apiKey: string }).apiKey
  }

  /** Re-applies what the page holds across live updates: revealed keys, the selected request. */
  function reapply(): void {
    for (const code of document.querySelectorAll<HTMLElement>('code.key-value[data-key-id]')) {
      const value = revealed.get(code.dataset.keyId ?? '')
      if (value === undefined) continue
      code.textContent = value
      code.classList.add('revealed')
      const button = document.querySelector<HTMLElement>(
        `button[data-action="key-reveal"][data-key-id="${CSS.escape(code.dataset.keyId ?? '')}"]`,
      )
      if (button !== null) {
        button.textContent = 'Hide'
        button.setAttribute('aria-pressed', 'true')
      }
    }
    for (const row of document.querySelectorAll('tr.selected')) row.classList.remove('selected')
    if (selectedRequest !== undefined) {
      document
        .querySelector(`button[data-action="request-details"][data-request-id="${CSS.escape(selectedRequest)}"]`)
        ?.closest('tr')
        ?.classList.add('selected')
    }
  }

  const path = (...parts: string[]) => `/_emulator/${parts.map(encodeURIComponent).join('/')}`

  document.addEventListener('click', (event) => {
    const button = (event.target as Element).closest<HTMLElement>('[data-action]')
    if (button === null) return
    const data = button.dataset
    switch (data.action) {
      case 'reset':
        if (confirmed(button)) void act('Reset the world', 'POST', '/_emulator/reset')
        break
      case 'download-state':
        void (async () => {
          const result = await call('GET', '/_emulator/state')
          if (!result.ok) return report('Download state', 'GET', '/_emulator/state', result)
          const text = JSON.stringify(result.body, null, 2)
          const link = document.createElement('a')
          link.href = URL.createObjectURL(new Blob([text], { type: 'application/json' }))
          link.download = 'presentation-emulator-state.json'
          link.click()
          setTimeout(() => URL.revokeObjectURL(link.href), 10_000)
          report('Download state', 'GET', '/_emulator/state', {
            ...result,
            body: `Saved presentation-emulator-state.json (${text.length.toLocaleString('en')} characters).`,
          })
        })()
        break
      case 'job-complete':
        void act(`Complete job ${data.jobId}`, 'POST', path('jobs', data.jobId ?? '', 'complete'))
        break
      case 'job-fail': {
        const message = failMessage.value.trim()
        void act(`Fail job ${data.jobId}`, 'POST', path('jobs', data.jobId ?? '', 'fail'), message === '' ? {} : { error: message })
        break
      }
      case 'fault-remove':
        void act(`Remove fault ${data.faultId}`, 'DELETE', path('faults', data.faultId ?? ''))
        break
      case 'faults-clear':
        void act('Clear all faults', 'DELETE', '/_emulator/faults')
        break
      case 'journal-clear':
        void act('Clear the journal', 'DELETE', '/_emulator/requests')
        break
      case 'key-revoke':
        if (confirmed(button)) void act(`Revoke key ${data.keyId}`, 'DELETE', path('keys', data.keyId ?? ''))
        break
      case 'key-reveal': {
        const keyId = data.keyId ?? ''
        const code = document.querySelector<HTMLElement>(`code.key-value[data-key-id="${CSS.escape(keyId)}"]`)
        if (code === null) break
        if (revealed.has(keyId)) {
          revealed.delete(keyId)
          code.textContent = code.dataset.masked ?? ''
          code.classList.remove('revealed')
          button.textContent = 'Reveal'
          button.setAttribute('aria-pressed', 'false')
          break
        }
        void keyValue(keyId).then((value) => {
          if (value === undefined) return
          revealed.set(keyId, value)
          reapply()
        })
        break
      }
      case 'key-copy': {
        const keyId = data.keyId ?? ''
        void keyValue(keyId).then(async (value) => {
          if (value !== undefined) flash(button, (await copyText(value)) ? 'Copied' : 'Copy failed')
        })
        break
      }
      case 'prefill-credits': {
        const form = byId<HTMLFormElement>('form-credits')
        ;(form.elements.namedItem('teamId') as HTMLInputElement).value = data.teamId ?? ''
        const credits = form.elements.namedItem('credits') as HTMLInputElement
        credits.value = data.credits ?? ''
        credits.focus()
        credits.select()
        break
      }
      case 'request-details': {
        selectedRequest = data.requestId
        detailsId.textContent = data.requestId ?? ''
        try {
          detailsBody.textContent = JSON.stringify(JSON.parse(data.entry ?? '{}'), null, 2)
        } catch {
          detailsBody.textContent = data.entry ?? ''
        }
        details.hidden = false
        reapply()
        details.scrollIntoView({ block: 'nearest' })
        break
      }
    }
  })

  const value = (form: HTMLFormElement, name: string) => ((form.elements.namedItem(name) as HTMLInputElement | null)?.value ?? '').trim()
  const optionalNumber = (text: string) => (text === '' ? undefined : Number(text))

  function onSubmit(id: string, handler: (form: HTMLFormElement) => Promise<unknown>): void {
    const form = byId<HTMLFormElement>(id)
    form.addEventListener('submit', (event) => {
      event.preventDefault()
      void handler(form)
    })
  }

  onSubmit('form-advance', async (form) => {
    const seconds = Number(value(form, 'seconds'))
    await act(`Advance the clock by ${seconds} s`, 'POST', '/_emulator/clock/advance', { ms: Math.round(seconds * 1000) })
  })
  onSubmit('form-credits', async (form) => {
    const teamId = value(form, 'teamId')
    await act(`Set credits of ${teamId}`, 'PUT', path('teams', teamId, 'credits'), { credits: Number(value(form, 'credits')) })
  })
  onSubmit('form-key', async (form) => {
    const body: Record<string, string> = { userId: value(form, 'userId') }
    if (value(form, 'teamId') !== '') body.teamId = value(form, 'teamId')
    if (value(form, 'name') !== '') body.name = value(form, 'name')
    const result = await call('POST', '/_emulator/keys', body)
    const apiKey = result.ok ? (result.body as { apiKey?: string }).apiKey : undefined
    report(`Create a key for ${body.userId}`, 'POST', '/_emulator/keys', result, apiKey)
  })
  onSubmit('form-fault', async (form) => {
    const body: Record<string, unknown> = { operationId: value(form, 'operationId') }
    const fields: Array<[string, unknown]> = [
      ['status', optionalNumber(value(form, 'status'))],
      ['times', optionalNumber(value(form, 'times'))],
      ['delayMs', optionalNumber(value(form, 'delayMs'))],
      ['apiKey', value(form, 'apiKey') || undefined],
      ['error', value(form, 'error') || undefined],
    ]
    for (const [name, v] of fields) if (v !== undefined) body[name] = v
    await act(`Add a fault on ${body.operationId}`, 'POST', '/_emulator/faults', body)
  })

  // ---------- live updates ----------
  const eventsBase = document.body.dataset.events ?? '/_emulator/dashboard/events'
  let source: EventSource | undefined

  function filterParams(): URLSearchParams {
    const params = new URLSearchParams()
    for (const name of ['operationId', 'status', 'keyId', 'limit']) {
      const v = value(filters, name)
      if (v !== '' && !(name === 'limit' && v === '50')) params.set(name, v)
    }
    return params
  }

  function connect(): void {
    source?.close()
    const url = new URL(eventsBase, location.href)
    for (const [name, v] of filterParams()) url.searchParams.set(name, v)
    source = new EventSource(`${url.pathname}${url.search}`)
    source.addEventListener('open', () => setLive(true))
    source.addEventListener('error', () => setLive(false))
    source.addEventListener('state', (event) => {
      setLive(true)
      const { sections } = JSON.parse((event as MessageEvent<string>).data) as { sections: Record<string, string> }
      for (const [name, html] of Object.entries(sections)) {
        for (const element of document.querySelectorAll<HTMLElement>(`[data-section="${CSS.escape(name)}"]`)) element.innerHTML = html
      }
      reapply()
    })
  }

  function setLive(on: boolean): void {
    live.classList.toggle('on', on)
    live.textContent = on ? 'Live' : 'Reconnecting…'
  }

  filters.addEventListener('submit', (event) => event.preventDefault())
  filters.addEventListener('change', () => {
    const page = new URL(location.href)
    for (const name of ['operationId', 'status', 'keyId', 'limit']) page.searchParams.delete(name)
    for (const [name, v] of filterParams()) page.searchParams.set(name, v)
    history.replaceState(null, '', `${page.pathname}${page.search}`)
    connect()
  })
  window.addEventListener('pagehide', () => source?.close())
  connect()
}

if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', start)
else start()
