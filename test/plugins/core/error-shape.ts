// The error tests' shared checks: every error answers its status with a JSON body {code, error, message};
// post and postForm send a JSON or a urlencoded body to the app.
import type { Test } from 'tap'
import { build, form, FORM } from '../../helper.js'

type Res = { statusCode: number; headers: Record<string, unknown>; json(): unknown; body: string }

export function isError (t: Test, res: Res, code: number, message: RegExp, what: string) {
  t.equal(res.statusCode, code, `${what}: status (${res.body.slice(0, 200)})`)
  t.match(String(res.headers['content-type']), /application\/json/, `${what}: JSON content type`)
  const body = res.json() as Record<string, unknown>
  t.same(Object.keys(body).sort(), ['code', 'error', 'message'], `${what}: body shape`)
  t.equal(body.code, code, `${what}: code`)
  t.type(body.error, 'string')
  t.match(body.message, message, `${what}: message`)
}

export const post = (app: Awaited<ReturnType<typeof build>>, url: string, payload: unknown) =>
  app.inject({ method: 'POST', url, payload: payload as Record<string, unknown> })
export const postForm = (
  app: Awaited<ReturnType<typeof build>>,
  url: string,
  fields: Record<string, string | string[]>
) =>
  app.inject({ method: 'POST', url, headers: FORM, payload: form(fields) })
