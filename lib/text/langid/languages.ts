// The languages the service names: ISO 639-1 code -> English name. Language detection answers one of
// these: the EU's languages, the ParallelDots clients' and the most spoken others (lid.176 knows 176;
// the rest, often regional neighbours such as Low German next to Dutch, are not answered, and Nynorsk
// is folded into Norwegian).
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  af: 'Afrikaans',
  ar: 'Arabic',
  be: 'Belarusian',
  bg: 'Bulgarian',
  bn: 'Bengali',
  bs: 'Bosnian',
  ca: 'Catalan',
  cs: 'Czech',
  da: 'Danish',
  de: 'German',
  el: 'Greek',
  en: 'English',
  es: 'Spanish',
  et: 'Estonian',
  eu: 'Basque',
  fa: 'Persian',
  fi: 'Finnish',
  fr: 'French',
  ga: 'Irish',
  gl: 'Galician',
  gu: 'Gujarati',
  he: 'Hebrew',
  hi: 'Hindi',
  hr: 'Croatian',
  hu: 'Hungarian',
  id: 'Indonesian',
  is: 'Icelandic',
  it: 'Italian',
  ja: 'Japanese',
  ko: 'Korean',
  lt: 'Lithuanian',
  lv: 'Latvian',
  mr: 'Marathi',
  ms: 'Malay',
  mt: 'Maltese',
  nl: 'Dutch',
  no: 'Norwegian',
  pa: 'Punjabi',
  pl: 'Polish',
  pt: 'Portuguese',
  ro: 'Romanian',
  ru: 'Russian',
  sk: 'Slovak',
  sl: 'Slovenian',
  sr: 'Serbian',
  sv: 'Swedish',
  sw: 'Swahili',
  ta: 'Tamil',
  te: 'Telugu',
  th: 'Thai',
  tl: 'Tagalog',
  tr: 'Turkish',
  uk: 'Ukrainian',
  ur: 'Urdu',
  vi: 'Vietnamese',
  zh: 'Chinese'
}

/** lid.176 labels that name a language under another code here */
export const LID_ALIASES: Readonly<Record<string, string>> = { nn: 'no' }

/** The writing systems of the languages not written in Latin letters (all others are). */
const SCRIPTS: Readonly<Record<string, RegExp>> = {
  ar: /\p{Script=Arabic}/u,
  fa: /\p{Script=Arabic}/u,
  ur: /\p{Script=Arabic}/u,
  be: /\p{Script=Cyrillic}/u,
  bg: /\p{Script=Cyrillic}/u,
  ru: /\p{Script=Cyrillic}/u,
  uk: /\p{Script=Cyrillic}/u,
  sr: /[\p{Script=Cyrillic}\p{Script=Latin}]/u,
  bn: /\p{Script=Bengali}/u,
  gu: /\p{Script=Gujarati}/u,
  pa: /\p{Script=Gurmukhi}/u,
  ta: /\p{Script=Tamil}/u,
  te: /\p{Script=Telugu}/u,
  // Hindi is often written in Latin letters (the UMSAB tweets are)
  hi: /[\p{Script=Devanagari}\p{Script=Latin}]/u,
  mr: /\p{Script=Devanagari}/u,
  el: /\p{Script=Greek}/u,
  he: /\p{Script=Hebrew}/u,
  th: /\p{Script=Thai}/u,
  ja: /[\p{Script=Hiragana}\p{Script=Katakana}\p{Script=Han}]/u,
  ko: /\p{Script=Hangul}/u,
  zh: /\p{Script=Han}/u
}
const LATIN = /\p{Script=Latin}/u

/** Whether a text has letters of the script its language is written in (lid.176 calls some short
 * lower-case English phrases Thai: a language whose letters the text does not use is no candidate). */
export function writtenIn (code: string, text: string): boolean {
  return (SCRIPTS[code] ?? LATIN).test(text)
}
