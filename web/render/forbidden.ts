/**
 * What the renderer's sanitiser removes whatever a slide writes: one list,
 * read by the browser's sanitiser (`client/sanitize.ts`, DOMPurify's
 * `FORBID_TAGS` and `FORBID_ATTR`) and by the Node checker's reading of a
 * slide's markup (`web/check/node/read-markup.ts`), so both engines forbid
 * the same. No imports: the Node checker's bundle takes it without DOMPurify.
 */

/** Elements that never reach a document. */
export const FORBIDDEN_TAGS: readonly string[] = [
  'script',
  'link',
  'meta',
  'base',
  'iframe',
  'frame',
  'frameset',
  'object',
  'embed',
  'form',
  'portal',
  'noscript',
]

/** Attributes that never reach a document (DOMPurify removes every `on*` attribute itself). */
export const FORBIDDEN_ATTRIBUTES: readonly string[] = ['ping', 'autofocus', 'srcdoc', 'action', 'formaction', 'target', 'http-equiv']
