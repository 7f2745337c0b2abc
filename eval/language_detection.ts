// npm run eval: the language detection model's row is eval/languages.ts (with the multilingual models')
export { evaluate } from './languages.js'
