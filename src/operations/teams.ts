import { decodeCursor, encodeCursor, takePage } from '../model/pagination.js'
import { teamView, templateView } from '../model/views.js'
import type { OperationHandlers } from './context.js'

export const teamHandlers: OperationHandlers<'listTeams' | 'listTemplates'> = {
  listTeams({ world, principal }) {
    const teams = [...world.teamIdsOf(principal.user.id)]
      .map((id) => world.teams.get(id)!)
      .sort(
        (a, b) => Number(b.personalOf !== null) - Number(a.personalOf !== null) || a.name.localeCompare(b.name) || (a.id < b.id ? -1 : 1),
      )
    return { teams: teams.map(teamView) }
  },

  listTemplates({ world, principal, query }) {
    const cursor = query.cursor === undefined ? undefined : decodeCursor('templates', query.cursor)
    const page = takePage({ [Symbol.iterator]: () => world.templatesOfTeam(principal.team.id, cursor) }, query.limit, (key) =>
      world.templates.get(key.id),
    )
    return {
      templates: page.items.map(templateView),
      ...(page.more && page.last ? { nextCursor: encodeCursor('templates', page.last) } : {}),
    }
  },
}
