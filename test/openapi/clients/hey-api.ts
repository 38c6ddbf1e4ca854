/** @hey-api/openapi-ts with its fetch client, as its docs show. */
import { FAILING_PROMPT, HUGE_SLIDE, MAX_POLLS, type Observed, observed, type Target } from './consumer'
import { createClient } from './generated/hey-api/client'
import { createProject, createSlide, generateProject, getJobStatus, updateProjectConfig, updateSlide } from './generated/hey-api/sdk.gen'
import type { UpdateSlideErrors } from './generated/hey-api/types.gen'

export async function run(target: Target): Promise<Observed> {
  // The document's bearer scheme: the client sends `auth` as the token.
  const client = createClient({ baseUrl: target.baseUrl, fetch: target.fetch, auth: () => target.apiKey })

  const created = await createProject({ client, body: { name: 'hey-api' } })
  if (created.data === undefined) throw new Error(`createProject: ${created.response.status}`)
  const slug = created.data.projectSlug

  // A palette only: `fonts` may be left out (the service fills it in).
  const tokens = await updateProjectConfig({
    client,
    path: { slug },
    body: { config: { tokens: { palette: [{ name: '--brand', value: '#1d4ed8' }] } } },
  })

  const generated = await generateProject({ client, body: { prompt: FAILING_PROMPT } })
  if (generated.data === undefined) throw new Error(`generateProject: ${generated.response.status}`)
  let jobStatus = 'processing'
  let jobError = ''
  for (let poll = 0; poll < MAX_POLLS && jobStatus === 'processing'; poll += 1) {
    const { data: job } = await getJobStatus({ client, path: { jobId: generated.data.jobId } })
    if (job === undefined) break
    jobStatus = job.status
    // `status === 'failed'` narrows the job to JobFailed, whose `error` is a string.
    if (job.status === 'failed') jobError = job.error
  }

  const slide = await createSlide({ client, path: { slug }, body: {} })
  if (slide.data === undefined) throw new Error(`createSlide: ${slide.response.status}`)
  const tooLarge = await updateSlide({
    client,
    path: { slug, slideId: slide.data.slideId },
    body: { files: { 'slide.tsx': HUGE_SLIDE } },
  })
  // The errors are keyed by status: a 413 exists only because the document lists it.
  const error: UpdateSlideErrors[413] | undefined = tooLarge.response.status === 413 ? tooLarge.error : undefined

  return observed(
    { status: tokens.response.status, config: tokens.data?.config },
    { status: jobStatus, error: jobError },
    { status: tooLarge.response.status, error },
  )
}
