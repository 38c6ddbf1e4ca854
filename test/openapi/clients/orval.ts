/** orval's fetch client, with a mutator for the base URL and the key. */
import { FAILING_PROMPT, HUGE_SLIDE, MAX_POLLS, type Observed, observed, type Target } from './consumer'
import { createProject, createSlide, generateProject, getJobStatus, updateProjectConfig, updateSlide } from './generated/orval/client'
import { setTarget } from './orval-fetch'

export async function run(target: Target): Promise<Observed> {
  setTarget(target)

  const created = await createProject({ name: 'orval' })
  if (created.status !== 200) throw new Error(`createProject: ${created.status}`)
  const slug = created.data.projectSlug

  // A palette only: `fonts` may be left out (the service fills it in).
  const tokens = await updateProjectConfig(slug, { config: { tokens: { palette: [{ name: '--brand', value: '#1d4ed8' }] } } })

  const generated = await generateProject({ prompt: FAILING_PROMPT })
  if (generated.status !== 200) throw new Error(`generateProject: ${generated.status}`)
  let jobStatus = 'processing'
  let jobError = ''
  for (let poll = 0; poll < MAX_POLLS && jobStatus === 'processing'; poll += 1) {
    const answer = await getJobStatus(generated.data.jobId)
    if (answer.status !== 200) break
    const job = answer.data
    jobStatus = job.status
    // `status === 'failed'` narrows the job to JobFailed, whose `error` is a string.
    if (job.status === 'failed') jobError = job.error
  }

  const slide = await createSlide(slug, {})
  if (slide.status !== 200) throw new Error(`createSlide: ${slide.status}`)
  const tooLarge = await updateSlide(slug, slide.data.slideId, { files: { 'slide.tsx': HUGE_SLIDE } })
  // The answer is a union by status: comparing with 413 compiles only because the document lists it.
  const error = tooLarge.status === 413 ? tooLarge.data : undefined

  return observed(
    { status: tokens.status, config: tokens.status === 200 ? tokens.data.config : undefined },
    { status: jobStatus, error: jobError },
    { status: tooLarge.status, error },
  )
}
