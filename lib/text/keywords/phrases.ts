// Noun phrases of English text (manifest kind noun-phrases), for /v4/phrase_extractor: the maximal
// noun-phrase chunks that wink-nlp's part-of-speech tags give (lib/text/keywords/candidates.ts, the
// candidates the keyword ranker also reads), each with an integer relevance: how many times the
// phrase (compared by word stems) occurs in the text, counting occurrences inside longer phrases.
// No trained weights of its own: the tagger is wink-eng-lite-web-model's.
import type { LoadedModel, ModelLoader } from '../../serving/loaded-model.js'
import { analyse } from './candidates.js'
import { getNlp } from './tokens.js'

export interface Phrase {
  keyword: string
  relevance_score: number
}

/** at most this many phrases per text, the most relevant first */
export const MAX_PHRASES = 50
const YIELD_CHARS = 10_000
const pause = () => new Promise<void>(resolve => setImmediate(resolve))

export function nounPhrases (text: string): Phrase[] {
  const a = analyse(text)
  const seen = new Set<string>()
  return a.candidates
    .filter(c => c.maximal)
    .sort((x, y) => y.starts.length - x.starts.length || (x.starts[0] as number) - (y.starts[0] as number))
    .filter(c => {
      const k = c.surface.toLowerCase()
      if (seen.has(k)) return false
      seen.add(k)
      return true
    })
    .slice(0, MAX_PHRASES)
    .map(c => ({ keyword: c.surface, relevance_score: c.starts.length }))
}

export const loadPhrases: ModelLoader = async (_dir, manifest) => {
  getNlp()
  return {
    manifest,
    async predict (texts: string[]) {
      const out: Phrase[][] = []
      let read = 0
      for (const t of texts) {
        out.push(nounPhrases(t))
        read += t.length
        if (read >= YIELD_CHARS) {
          read = 0
          await pause()
        }
      }
      return out
    },
    async warm () {
      await this.predict(['The quick brown fox jumps over the lazy dog.'])
    },
    dispose () {}
  } satisfies LoadedModel<string, Phrase[]>
}
