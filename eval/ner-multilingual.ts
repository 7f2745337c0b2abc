// The encoder's NER head is scored as the tagger is (eval/ner.ts), in every validation language.
export { evaluate } from './ner.js'
