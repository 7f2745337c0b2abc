// Intent's weak labels: spam that sells is marketing, the rest spam (by their wording), and an ordinary
// e-mail asks (a query) or tells (news).
const words = (list: string[]) => new RegExp(`\\b(${list.join('|')})\\b`, 'i')

// Weak labels for marketing: spam that sells (offers, shops, subscriptions) without the prize,
// claim and urgency wording of scams.
export const PROMO = words([
  'offer', 'sale', 'discount', '% off', 'free delivery', 'shop', 'order', 'subscribe', 'subscription', 'latest',
  'ringtone', 'tones?', 'club', 'special', 'deal', 'save', 'voucher', 'unsub', 'opt ?out', 'stop to', 'catalogue',
  'membership', 'new'
])
export const SCAM = words([
  'won', 'win', 'winner', 'prize', 'claim', 'urgent', 'selected', 'guaranteed', 'cash', 'award', 'congratulations',
  'lucky', 'dating', 'sexy', 'xxx', 'chat', 'password', 'verify', 'account', 'bank', 'suspend\\w*', 'security',
  'confirm', 'login', 'log in'
])
export const promoOrScam = (text: string) => (PROMO.test(text) && !SCAM.test(text) ? 'marketing' : 'spam')

// Ordinary e-mail asks or tells: a ham e-mail with a question mark is a query, the rest news (weak labels)
export const hamIntent = (text: string) => (text.includes('?') ? 'query' : 'news')
