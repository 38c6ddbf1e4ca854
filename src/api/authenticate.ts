import { fail } from '../core/errors.js'
import { bearer } from '../core/http-input.js'
import { API_KEY_PREFIX, type Principal } from '../model/access.js'
import type { World } from '../store/world.js'

/**
 * The principal of an `Authorization: Bearer <API key>` header: the key,
 * its owner and the team it is scoped to. A missing, malformed, unknown or
 * revoked key is a 401 saying which.
 */
export function authenticateKey(header: string | undefined, world: World): Principal {
  const token = bearer(header)
  if (token === undefined) {
    throw fail.unauthorized(
      header === undefined ? 'send the header Authorization: Bearer <API key>' : 'the Authorization header must be "Bearer <API key>"',
    )
  }
  if (!token.startsWith(API_KEY_PREFIX)) {
    throw fail.unauthorized(`API keys start with "${API_KEY_PREFIX}"`)
  }
  const key = world.apiKeyByValue(token)
  if (key === undefined) throw fail.unauthorized('the API key is not valid')
  if (key.revokedAt !== null) throw fail.unauthorized('the API key has been revoked')
  const user = world.users.get(key.userId)
  const team = world.teams.get(key.teamId)
  if (user === undefined || team === undefined) throw fail.unauthorized('the API key’s owner or team no longer exists')
  return { key, user, team }
}
