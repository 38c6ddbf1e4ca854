/**
 * The English text generated slides are written from: per design, titles
 * and sentences with a slot for the topic (`{T}` at the start of a title,
 * `{t}` inside a sentence; see `Topic`), and lists to draw from. Every
 * template reads well with any noun phrase in the slot (no verb agrees with
 * it), and no word here is one of faker's lorem words (a test checks the
 * whole list against faker's own), so a deck reads as English whatever its
 * seed.
 */

export const TITLE_KICKERS = [
  'Team briefing',
  'Strategy session',
  'Project update',
  'Planning workshop',
  'Leadership review',
  'Kickoff meeting',
  'Progress report',
]

/** The subtitle of a title slide whose prompt has nothing after its topic. */
export const TITLE_SUBTITLES = [
  'Goals, progress and the road ahead',
  'Where we are, what we learned and what follows',
  'The plan, the numbers and the next steps',
  'What matters most, and how we get there',
]

export const AGENDA_TITLES = ['Agenda', 'Today’s agenda', 'What we will cover', 'The plan for today']
/** Agenda items when no slide follows the agenda to list. */
export const AGENDA_FALLBACK = ['Where we stand', 'What we learned', 'Next steps']

export const CONTENT_TITLES = [
  '{T}: key priorities',
  '{T}: what we know so far',
  'Getting {t} right',
  'Making {t} work',
  'Lessons from {t}',
  'Priorities for {t}',
  '{T}: the essentials',
  'The case for {t}',
]
export const CONTENT_LEADS = [
  'Getting {t} right takes clear goals, honest numbers and one owner for each decision.',
  'For {t}, the biggest gains come from doing fewer things, better.',
  'Here is what the evidence says about {t}, and where to focus next.',
  'Progress on {t} depends on the same few habits, repeated every week.',
]
export const CONTENT_BULLETS = [
  'Agree on one measurable goal and review it every month',
  'Name one owner for each open decision',
  'Share progress openly, including what did not work',
  'Start small, learn fast, then scale what works',
  'Remove steps that add delay but no value',
  'Involve the people affected from the start',
  'Measure outcomes, not just activity',
  'Set aside time for training and support',
  'Keep one shared source of truth for plans and results',
  'Celebrate early wins to build momentum',
]
export const CONTENT_TAKEAWAYS = [
  'The short version: focus, measure, repeat.',
  'Small, steady steps beat one big launch.',
  'Clarity first; speed follows.',
  'If it is not measured, it is not managed.',
]

/** Two columns: a title and, per column, a heading, a sentence and points. */
export const SPLIT_PAIRS: ReadonlyArray<{
  title: string
  columns: readonly [SplitColumn, SplitColumn]
}> = [
  {
    title: '{T}: today and tomorrow',
    columns: [
      {
        heading: 'Today',
        text: 'Work is spread across teams, tools and habits that grew over time.',
        points: ['Manual steps slow down routine requests', 'Data lives across several tools', 'Decisions wait on one or two busy people'],
      },
      {
        heading: 'Tomorrow',
        text: 'One clear way of working that everyone can see and improve.',
        points: ['Routine steps happen automatically', 'One shared view of progress', 'Owners decide close to the work'],
      },
    ],
  },
  {
    title: '{T}: challenges and opportunities',
    columns: [
      {
        heading: 'Challenges',
        text: 'The obstacles are familiar, which makes them easier to plan for.',
        points: ['Competing priorities for the same people', 'Little shared data on results', 'Habits that resist change'],
      },
      {
        heading: 'Opportunities',
        text: 'Each obstacle points to one concrete improvement.',
        points: ['One list of priorities, agreed by everyone', 'Simple metrics, visible to all', 'Quick wins that build trust'],
      },
    ],
  },
  {
    title: '{T}: what works and what to fix',
    columns: [
      {
        heading: 'What works',
        text: 'Several things are already going well and deserve more support.',
        points: ['Strong commitment from the core team', 'Fast feedback from early users', 'Clear ownership of daily tasks'],
      },
      {
        heading: 'What to fix',
        text: 'Few gaps remain, and each one has an owner and one next step.',
        points: ['Handoffs that lose context', 'Reports that arrive too late to act on', 'Too many tools for one job'],
      },
    ],
  },
  {
    title: '{T}: short term and long term',
    columns: [
      {
        heading: 'Next 90 days',
        text: 'Quick, visible progress that proves the approach.',
        points: ['Pick two pilot groups', 'Set the baseline numbers', 'Review results every two weeks'],
      },
      {
        heading: 'Next 12 months',
        text: 'Scale what worked and make it part of everyday work.',
        points: ['Extend to every team', 'Automate the routine parts', 'Publish results each quarter'],
      },
    ],
  },
]

export interface SplitColumn {
  heading: string
  text: string
  points: readonly string[]
}

export const QUOTE_TITLES = ['Voices on {t}', 'What people say about {t}', '{T}: the view from the team', '{T}: what people say']
export const QUOTES = [
  'The day we shared the numbers with everyone, {t} stopped being one team’s side project.',
  'We did not need more meetings. We needed one clear goal for {t}, and the room to reach it.',
  'The best decision we made about {t} was to start small and listen closely.',
  'Once people could see the progress on {t}, they started suggesting the next steps themselves.',
  'Nothing about {t} was hard to explain. It was hard to keep simple, and that is where the work went.',
]
/** Invented people for quotes (not faker's names: some of those are lorem words). */
export const FIRST_NAMES = ['Priya', 'Marcus', 'Elena', 'Tomás', 'Aisha', 'Daniel', 'Mei', 'Jonas', 'Fatima', 'Oliver', 'Sofia', 'Kwame']
export const LAST_NAMES = ['Raman', 'Okafor', 'Lindqvist', 'Chen', 'Alvarez', 'Novak', 'Haddad', 'Kowalski', 'Mensah', 'Park', 'Rossi']
export const ROLES = [
  'Programme lead',
  'Head of operations',
  'Project sponsor',
  'Team lead',
  'Product manager',
  'Director of strategy',
  'Customer success lead',
  'Field engineer',
]

export const STATS_TITLES = ['{T} by the numbers', '{T}: results so far', 'What the numbers say about {t}', '{T}: early results']
export const STATS_LEADS = [
  'Figures from the pilot phase, updated every month.',
  'The first results are encouraging, and we keep measuring.',
  'Three numbers that tell the story so far.',
]
/** A statistic: how its value is drawn and what it measures. */
export const STATS: ReadonlyArray<{ value: { min: number; max: number; suffix: string; decimals?: number }; label: string }> = [
  { value: { min: 18, max: 64, suffix: '%' }, label: 'fewer handoffs between teams' },
  { value: { min: 55, max: 96, suffix: '%' }, label: 'of milestones met on schedule' },
  { value: { min: 1.5, max: 4.5, suffix: '×', decimals: 1 }, label: 'faster answers to routine requests' },
  { value: { min: 120, max: 980, suffix: '+' }, label: 'people reached so far' },
  { value: { min: 70, max: 97, suffix: '%' }, label: 'satisfaction score from participants' },
  { value: { min: 6, max: 30, suffix: '' }, label: 'days from idea to first result' },
  { value: { min: 10, max: 40, suffix: '%' }, label: 'lower cost per request' },
  { value: { min: 3, max: 12, suffix: '' }, label: 'teams already on board' },
]

export const IMAGE_TITLES = ['{T}: the big picture', 'Seeing {t} clearly', '{T}: how it fits together', 'Where {t} goes next']
export const IMAGE_LEADS = [
  'One picture of how the pieces connect, from first idea to lasting result.',
  'Each part supports the next: people, process and the tools that help them.',
  'The whole effort on one page, so everyone can see where their work fits.',
]
export const IMAGE_POINTS = [
  'Clear goals everyone can repeat',
  'Simple steps that are easy to follow',
  'Regular check-ins on progress',
  'Feedback that shapes the next round',
  'Tools that remove busywork',
]

export const CLOSING_TITLES = ['Thank you', 'Thank you for listening', 'Questions and next steps', 'Let’s talk']
export const CLOSING_LINES = [
  'Questions, ideas and feedback on {t} are welcome.',
  'Let’s keep {t} moving: send us your questions and ideas.',
  'Next step: agree on owners and dates for {t} this week.',
]
export const CONTACTS = ['hello@example.com', 'team@example.com', 'questions@example.com']

/** Fills a template's `{T}` and `{t}` slots. */
export function fill(template: string, topic: { lead: string; inline: string }): string {
  return template.replace(/\{T\}/g, topic.lead).replace(/\{t\}/g, topic.inline)
}
