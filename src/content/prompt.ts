/**
 * What a generated deck is about, read from its prompt (or from a
 * template's or a fixture project's name): the leading noun phrase, the
 * rest of the first clause, and the forms the copy puts them in. A small
 * set of rules, not a parser: it handles the shapes prompts usually take
 * ("Create a presentation about ocean conservation for high school
 * students", "Quarterly business review for the logistics team",
 * "The history of jazz in New Orleans. Keep it light.").
 */

/** An instruction before the subject: "Create a short presentation about", "Pitch deck for". */
const VERBS = String.raw`(?:please\s+)?(?:(?:can|could|would)\s+you\s+)?(?:create|make|build|generate|write|prepare|draft|produce|put\s+together|give\s+me|i\s+need|we\s+need)\s+`
const DETERMINER = String.raw`(?:a|an|the|my|our|some)\s+`
const ADJECTIVES = String.raw`(?:(?:short|quick|brief|simple|clear|new|final|internal|visual|engaging|\d+[-\s]?(?:slides?|minutes?|min))\s+)*`
const DECK = String.raw`(?:slide\s*deck|pitch\s+deck|deck|slides|presentation|keynote|talk|briefing)`
const CONNECTOR = String.raw`(?:about|on|for|covering|explaining|introducing|describing|presenting|showing|titled|called|of|to\s+(?:explain|introduce|present|pitch|show))\b`
/** A verb only counts as an instruction when what follows is a determiner or a deck word ("Design systems for…" is a subject). */
const INSTRUCTION = new RegExp(String.raw`^${VERBS}(?=${DETERMINER}|${ADJECTIVES}${DECK}\b)`, 'i')
const DECK_WORDS = new RegExp(String.raw`^(?:${DETERMINER})?${ADJECTIVES}${DECK}\b[\s:,-]*(?:${CONNECTOR})?`, 'i')
const LEADING_DETERMINER = /^(?:a|an|the|my|our|your|their|this|these|some)\s+/i

/** Words that end a noun phrase ("of" does not: "the history of jazz"). */
const BOUNDARIES = new Set(
  (
    'for in at on to with by from about into across through during over under between among around via per after before ' +
    'within without toward towards against beyond since until upon and or but so that which who whom whose where when how why ' +
    'while whether if because as is are was were be been will would can could should must may might has have had do does did ' +
    'keep make use include including focus focusing explain explaining'
  ).split(' '),
)

/** Nouns a phrase can end with that take "the" inside a sentence ("Making the launch plan work"). */
const COUNTABLE_HEADS = new Set(
  (
    'plan review guide update report proposal roadmap strategy budget launch pitch kickoff retrospective analysis overview ' +
    'introduction workshop program programme project app application product platform team startup company business ' +
    'service campaign initiative process framework model system policy course class lesson tour story case study survey ' +
    'audit assessment migration rollout redesign release offsite summit conference event festival trip'
  ).split(' '),
)

/** Small words Title Case leaves lowercase (except first). */
const MINOR_WORDS = new Set('a an and as at but by for from in into nor of on or per the to vs via with'.split(' '))

/** What the copy needs to know about a prompt. */
export interface Topic {
  /** The leading noun phrase as the prompt writes it ("ocean conservation", "Q3 business review"). */
  readonly phrase: string
  /** The deck's title: the phrase in Title Case ("Ocean Conservation"). */
  readonly title: string
  /** The phrase at the start of a title or sentence ("Ocean conservation", "Onboarding guide"). */
  readonly lead: string
  /** The phrase inside a sentence ("ocean conservation", "the onboarding guide"). */
  readonly inline: string
  /** The rest of the first clause, as a subtitle ("For high school students"), or "" when there is none. */
  readonly rest: string
}

const WORDS_MAX = 6
const REST_WORDS_MAX = 14

/** `text` with its first character in upper case. */
export function capitalizeFirst(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1)
}

/** A word written in lowercase except its first letter ("Ocean", not "Q3", "NASA" or "iPhone"). */
function isCapitalizedWord(word: string): boolean {
  return /^\p{Lu}[\p{Ll}'’-]*$/u.test(word)
}

/** Title Case that keeps what the prompt capitalised (Q3, NASA, iPhone) and leaves small words lowercase. */
export function titleCase(phrase: string): string {
  return phrase
    .split(' ')
    .map((word, index) => {
      if (word === '') return word
      if (index > 0 && MINOR_WORDS.has(word.toLowerCase())) return word.toLowerCase()
      // Only words written all in lowercase: iOS, eBay and Q3 stay as written.
      return /^\p{Ll}[^\p{Lu}]*$/u.test(word) ? capitalizeFirst(word) : word
    })
    .join(' ')
}

/** The subject of a prompt: without an instruction before it ("Create a short deck about"), up to the end of its first clause. */
function subjectOf(prompt: string): string {
  let text = prompt.replace(/\s+/g, ' ').trim()
  const instruction = INSTRUCTION.exec(text)
  if (instruction !== null) text = text.slice(instruction[0].length)
  const deck = DECK_WORDS.exec(text)
  // "Pitch deck" alone is its own subject; only strip the deck words when something follows them.
  if (deck !== null && /\p{L}|\p{N}/u.test(text.slice(deck[0].length))) text = text.slice(deck[0].length)
  text = text.replace(/^[\s:,;.–—-]+/, '').replace(LEADING_DETERMINER, '')
  // The first clause: up to a sentence end, a colon, a semicolon, a comma, a dash or a parenthesis.
  const clause = text.split(/[.!?;:,()[\]]\s|[.!?;:,()[\]]$|\s[–—-]\s|\n/)[0] ?? ''
  return clause.replace(/[.!?;:,]+$/, '').trim()
}

/** A word that reads as a verb after a noun: "engineers joining", "hospital reduced". */
function isVerbForm(word: string): boolean {
  return /^\p{Ll}{3,}(?:ing|ed)$/u.test(word)
}

/** Reads what a deck is about from its prompt. Never empty: a prompt of no words gives "Our project". */
export function readTopic(prompt: string): Topic {
  const subject = subjectOf(prompt)
  const words = subject.split(' ').filter((word) => word !== '')
  let end = 0
  while (end < words.length && end < WORDS_MAX) {
    const word = words[end]!
    const bare = word.toLowerCase().replace(/[^\p{L}\p{N}'’-]/gu, '')
    if (end > 0 && (BOUNDARIES.has(bare) || isVerbForm(word))) break
    end++
  }
  // "the history of" ends on "of": drop it.
  while (end > 1 && /^(?:of|the|a|an|and|&)$/i.test(words[end - 1]!)) end--
  const phraseWords = words.slice(0, end)
  if (phraseWords.length === 0) return { phrase: 'Our project', title: 'Our Project', lead: 'Our project', inline: 'our project', rest: '' }
  const phrase = phraseWords.join(' ')
  const restWords = words.slice(end)
  const rest = restWords.length === 0 ? '' : capitalizeFirst(restWords.slice(0, REST_WORDS_MAX).join(' '))

  // Inside a sentence, a first word the prompt capitalised only because it started the sentence is lowercased.
  const startsPrompt = subject.length > 0 && prompt.trimStart().startsWith(subject)
  const lowerFirst = startsPrompt && isCapitalizedWord(phraseWords[0]!) && phraseWords.slice(1).every((word) => !/^\p{Lu}/u.test(word))
  const plain = lowerFirst ? phraseWords[0]!.toLowerCase() + (phraseWords.length > 1 ? ` ${phraseWords.slice(1).join(' ')}` : '') : phrase
  // "the" before a countable head ("the launch plan") or a phrase with "of" ("the history of jazz").
  const head = phraseWords[phraseWords.length - 1]!.toLowerCase()
  const definite = COUNTABLE_HEADS.has(head) || phraseWords.some((word) => word.toLowerCase() === 'of')
  const inline = definite && !/^(?:a|an|the|my|our|your|their|this)$/i.test(phraseWords[0]!) ? `the ${plain}` : plain
  return { phrase, title: titleCase(phrase), lead: capitalizeFirst(phrase), inline, rest }
}
