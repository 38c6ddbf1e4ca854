/** openapi-typescript's types with openapi-fetch, as its README shows. */
import createClient from 'openapi-fetch'
import { FAILING_PROMPT, HUGE_SLIDE, MAX_POLLS, type Observed, observed, type Target } from './consumer'
import type { paths } from './generated/openapi-typescript/schema'

/** The error body the document lists for a 413 of a slide update: absent from the types if the document lost it. */
type TooLarge = paths['/projects/{slug}/slides/{slideId}']['put']['responses'][413]['content']['application/json']

export async function run(target: Target): Promise<Observed> {
  const client = createClient<paths>({
    baseUrl: target.baseUrl,
    fetch: target.fetch,
    headers: { Authorization: `Bearer ${target.apiKey}` },
  })

  const created = await client.POST('/projects', { body: { name: 'openapi-fetch' } })
  if (created.data === undefined) throw new Error(`createProject: ${created.response.status}`)
  const slug = created.data.projectSlug

  // A palette only: `fonts` may be left out (the service fills it in).
  const tokens = await client.PUT('/projects/{slug}/config', {
    params: { path: { slug } },
    body: { config: { tokens: { palette: [{ name: '--brand', value: '#1d4ed8' }] } } },
  })

  const generated = await client.POST('/projects/generate', { body: { prompt: FAILING_PROMPT } })
  if (generated.data === undefined) throw new Error(`generateProject: ${generated.response.status}`)
  let jobStatus = 'processing'
  let jobError = ''
  for (let poll = 0; poll < MAX_POLLS && jobStatus === 'processing'; poll += 1) {
    const { data: job } = await client.GET('/projects/jobs/{jobId}', { params: { path: { jobId: generated.data.jobId } } })
    if (job === undefined) break
    jobStatus = job.status
    // `status === 'failed'` narrows the job to JobFailed, whose `error` is a string.
    if (job.status === 'failed') jobError = job.error
  }

  const slide = await client.POST('/projects/{slug}/slides', { params: { path: { slug } }, body: {} })
  if (slide.data === undefined) throw new Error(`createSlide: ${slide.response.status}`)
  const tooLarge = await client.PUT('/projects/{slug}/slides/{slideId}', {
    params: { path: { slug, slideId: slide.data.slideId } },
    body: { files: { 'slide.tsx': HUGE_SLIDE } },
  })
  const error: TooLarge | undefined = tooLarge.response.status === 413 ? tooLarge.error : undefined

  return observed(
    { status: tokens.response.status, config: tokens.data?.config },
    { status: jobStatus, error: jobError },
    { status: tooLarge.response.status, error },
  )
}
