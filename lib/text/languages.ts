// The languages the service names: ISO 639-1 code -> English name. Language detection answers one of
// these: the EU's languages, the ParallelDots clients' and the most spoken others (lid.176 knows 176;
// the rest, often regional neighbours such as Low German next to Dutch, are not answered, and Nynorsk
// is folded into Norwegian).
export const LANGUAGE_NAMES: Readonly<Record<string, string>> = {
  af: 'Afrikaans', ar: 'Arabic', be: 'Belarusian', bg: 'Bulgarian', bn: 'Bengali', bs: 'Bosnian', ca: 'Catalan',
  cs: 'Czech', da: 'Danish', de: 'German', el: 'Greek', en: 'English', es: 'Spanish', et: 'Estonian', eu: 'Basque',
  fa: 'Persian', fi: 'Finnish', fr: 'French', ga: 'Irish', gl: 'Galician', gu: 'Gujarati', he: 'Hebrew', hi: 'Hindi',
  hr: 'Croatian', hu: 'Hungarian', id: 'Indonesian', is: 'Icelandic', it: 'Italian', ja: 'Japanese', ko: 'Korean',
  lt: 'Lithuanian', lv: 'Latvian', mr: 'Marathi', ms: 'Malay', mt: 'Maltese', nl: 'Dutch', no: 'Norwegian',
  pa: 'Punjabi', pl: 'Polish', pt: 'Portuguese', ro: 'Romanian', ru: 'Russian', sk: 'Slovak', sl: 'Slovenian',
  sr: 'Serbian', sv: 'Swedish', sw: 'Swahili', ta: 'Tamil', te: 'Telugu', th: 'Thai', tl: 'Tagalog', tr: 'Turkish',
  uk: 'Ukrainian', ur: 'Urdu', vi: 'Vietnamese', zh: 'Chinese'
}

/** lid.176 labels that name a language under another code here */
export const LID_ALIASES: Readonly<Record<string, string>> = { nn: 'no' }
