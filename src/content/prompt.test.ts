import { describe, expect, it } from 'vitest'
import { readTopic, titleCase } from './prompt.js'

describe('readTopic', () => {
  it.each([
    ['Create a presentation about ocean conservation for high school students', 'ocean conservation', 'For high school students'],
    ['Quarterly business review for the Northwind logistics team', 'Quarterly business review', 'For the Northwind logistics team'],
    ['Make a short deck on remote work policies, benefits and risks', 'remote work policies', ''],
    ['The history of jazz in New Orleans. Keep it light and visual.', 'history of jazz', 'In New Orleans'],
    ['Pitch deck for a solar battery startup raising its seed round', 'solar battery startup', 'Raising its seed round'],
    ['Onboarding guide for new engineers joining the platform team', 'Onboarding guide', 'For new engineers joining the platform team'],
    ['Please build a 10-slide presentation on Q3 results', 'Q3 results', ''],
  ])('reads the leading noun phrase of %j', (prompt, phrase, rest) => {
    const topic = readTopic(prompt)
    expect(topic.phrase).toBe(phrase)
    expect(topic.rest).toBe(rest)
  })

  it('keeps a subject that starts with a verb-like word when no determiner or deck word follows it', () => {
    expect(readTopic('Design systems for startups').phrase).toBe('Design systems')
    expect(readTopic('Build pipelines that never break').phrase).toBe('Build pipelines')
  })

  it('keeps a prompt that is only deck words as its own subject', () => {
    expect(readTopic('Pitch deck').phrase).toBe('Pitch deck')
    expect(readTopic('Welcome deck').phrase).toBe('Welcome deck')
  })

  it('gives a title in Title Case, a lead form and an inline form with "the" for countable heads', () => {
    expect(readTopic('Onboarding guide for new engineers')).toMatchObject({
      title: 'Onboarding Guide',
      lead: 'Onboarding guide',
      inline: 'the onboarding guide',
    })
    expect(readTopic('ocean conservation')).toMatchObject({
      title: 'Ocean Conservation',
      lead: 'Ocean conservation',
      inline: 'ocean conservation',
    })
    // Capitals the prompt wrote inside the phrase are kept.
    expect(readTopic('AWS Lambda migration plan').inline).toBe('the AWS Lambda migration plan')
    expect(readTopic('NASA mission review').inline).toBe('the NASA mission review')
    expect(readTopic('The history of jazz in New Orleans').inline).toBe('the history of jazz')
    expect(readTopic('Our Q3 results').inline).toBe('Q3 results')
  })

  it('never gives an empty phrase, and caps a long one at six words', () => {
    expect(readTopic('').phrase).toBe('Our project')
    expect(readTopic('   ...   ').phrase).toBe('Our project')
    expect(readTopic('one two three four five six seven eight').phrase).toBe('one two three four five six')
  })
})

describe('titleCase', () => {
  it('capitalises words, leaves small words and what the prompt capitalised as they are', () => {
    expect(titleCase('history of jazz and the blues')).toBe('History of Jazz and the Blues')
    expect(titleCase('iOS release plan for Q3')).toBe('iOS Release Plan for Q3')
  })
})
