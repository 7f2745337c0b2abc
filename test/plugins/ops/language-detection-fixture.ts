// The language detection tests' shared pieces: the shape of one detection answer, and a POST of a JSON
// payload with the test api_key.
import { KEY, type build } from '../../helper.js'

export type Guess = { output: string; prob: number; lang_code: string }
export const post = (app: Awaited<ReturnType<typeof build>>, url: string, payload: Record<string, unknown>) =>
  app.inject({ method: 'POST', url, payload: { api_key: KEY, ...payload } })
