import * as z from 'zod'
import { DateTime, pageQuery } from './common.js'

export const Team = z.object({
  id: z.string(),
  slug: z.string(),
  name: z.string(),
  isPersonal: z.boolean(),
})
export type Team = z.infer<typeof Team>

export const ListTeamsResponse = z.object({ teams: z.array(Team) })
export type ListTeamsResponse = z.infer<typeof ListTeamsResponse>

export const Template = z.object({
  id: z.string(),
  name: z.string(),
  screenshotUrl: z.string().nullable(),
  updatedAt: DateTime,
})
export type Template = z.infer<typeof Template>

/** Query of `GET /projects/templates`. */
export const ListTemplatesQuery = z.object({ ...pageQuery(50) })
export type ListTemplatesQuery = z.infer<typeof ListTemplatesQuery>

export const ListTemplatesResponse = z.object({
  templates: z.array(Template),
  nextCursor: z.string().optional(),
})
export type ListTemplatesResponse = z.infer<typeof ListTemplatesResponse>
