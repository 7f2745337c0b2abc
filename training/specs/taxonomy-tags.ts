// Taxonomy's tags: each one's IAB Content Taxonomy 3.1 tier-1 name, and its id as the taxonomy's own file
// (taxonomy/iab-content-taxonomy) gives it.
import { iabTier1 } from '../readers/domains-taxonomy.js'

/** each tag's IAB Content Taxonomy 3.1 tier-1 name (ids are read from taxonomy/iab-content-taxonomy) */
const IAB: Record<string, string> = {
  TECH: 'Technology & Computing',
  BUSINESS: 'Business and Finance',
  POLITICS: 'Politics',
  ENTERTAINMENT: 'Entertainment',
  SPORTS: 'Sports',
  HEALTH: 'Healthy Living',
  TRAVEL: 'Travel',
  FOOD: 'Food & Drink',
  SCIENCE: 'Science',
  EDUCATION: 'Education',
  STYLE: 'Style & Fashion',
  FAMILY: 'Family and Relationships',
  HOME: 'Home & Garden',
  RELIGION: 'Religion & Spirituality',
  CRIME: 'Crime',
  FINE_ART: 'Fine Art',
  PERSONAL_FINANCE: 'Personal Finance',
  BOOKS: 'Books and Literature',
  AUTOMOTIVE: 'Automotive',
  LIFE_EVENTS: 'Personal Celebrations & Life Events',
  CAREERS: 'Careers'
}
export const TAGS = Object.keys(IAB)

/** each tag's place in IAB Content Taxonomy 3.1 tier 1: its id and name (an error if the file lacks one) */
export function iabTags (): Record<string, { id: string; name: string }> {
  const ids = new Map(iabTier1('3.1').map(t => [t.name, t.id]))
  return Object.fromEntries(
    TAGS.map(t => {
      const id = ids.get(IAB[t] as string)
      if (id === undefined) throw new Error(`no IAB 3.1 tier-1 category named ${IAB[t]}`)
      return [t, { id, name: IAB[t] as string }]
    })
  )
}
