// Options from a command line and an environment, by a table of them (training/readers/options.ts,
// eval/options.ts): each option from its flag (--name=value or --name value; an on/off one --name, --no-name or
// --name=0|1), else its environment variable (an empty one counts as unset), else its default; a bad value is an
// OptionError naming it.

/** an environment: variable names to values, as node gives them */
export type Env = Record<string, string | undefined>
/** reads a value (from a flag or a variable); `what` names the option in errors */
export type Parse<T> = (raw: string, what: string) => T
/** an option: its environment variable, default, reading and, for an on/off one, the variable's word for on */
export interface Option<T> {
  env?: string
  fallback: T
  parse: Parse<T>
  bool?: boolean
  envOn?: string
}
export type Table<T> = { [K in keyof Required<T>]: Option<T[K]> }

/** a value an option cannot take, or a flag without its value */
export class OptionError extends Error {}

export const opt = <T>(env: string | undefined, fallback: T, parse: Parse<T>): Option<T> => ({ env, fallback, parse })
export const text: Parse<string> = raw => raw
export const num: Parse<number> = (raw, what) => {
  const n = Number(raw)
  if (raw.trim() === '' || Number.isNaN(n)) throw new OptionError(`${what}: '${raw}' is not a number`)
  return n
}
export const list = (sep: string) => (raw: string) => raw.split(sep)
export const nums = (sep: string) => (raw: string, what: string) => raw.split(sep).map(x => num(x, what))
export const words = (raw: string) => raw.split(' ').filter(Boolean)
export const oneOf =
  <C extends string>(...choices: C[]) =>
    (raw: string, what: string): C => {
      if (!(choices as string[]).includes(raw)) throw new OptionError(`${what}: '${raw}' is not ${choices.join(', ')}`)
      return raw as C
    }
export const weights = (raw: string, what: string): Record<string, number> =>
  Object.fromEntries(
    raw
      .split(',')
      .filter(Boolean)
      .map(x => x.split('='))
      .map(([k, v]) => [k as string, num(v ?? '', what)])
  )
const YES = ['1', 'true', 'yes', 'on']
const NO = ['0', 'false', 'no', 'off']
/**
 * an on/off option; its variable, as before: on by default unless it is 0, off by default unless it is `envOn` (1)
 */
export const flag = <F extends boolean | undefined>(env: string | undefined, fallback: F, envOn = '1') => {
  const parse = (raw: string, what: string): boolean | F => {
    if (YES.includes(raw) || NO.includes(raw)) return YES.includes(raw)
    throw new OptionError(`${what}: '${raw}' is not on or off (1, 0, true, false, yes, no)`)
  }
  return { env, fallback, parse, bool: true, envOn } as Option<boolean | F>
}

export const kebab = (name: string) => name.replace(/[A-Z]/g, c => `-${c.toLowerCase()}`).replaceAll('_', '-')
/** a table's options by flag name (without the dashes), each flag's name `prefix` + the field's in kebab case */
export const flagsOf = <T>(table: Table<T>, prefix = ''): Array<[string, Option<unknown>]> =>
  Object.entries<Option<unknown>>(table).map(([k, o]) => [prefix + kebab(k), o])
/** the command line read: the known flags' values, the other arguments in order, and the unknown flags */
export interface Argv {
  flags: Map<string, string | boolean>
  args: string[]
  unknown: string[]
}
/** splits argv by the known options (`--` ends the flags); a flag that takes a value may take the next argument */
export function splitArgv (argv: string[], known: Map<string, Option<unknown>>): Argv {
  const read: Argv = { flags: new Map(), args: [], unknown: [] }
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string
    if (a === '--') {
      read.args.push(...argv.slice(i + 1))
      break
    }
    const eq = a.indexOf('=')
    const name = eq < 0 ? a.slice(2) : a.slice(2, eq)
    const off = name.startsWith('no-') && known.get(name.slice(3))?.bool === true && eq < 0
    const o = known.get(off ? name.slice(3) : name)
    if (!a.startsWith('--')) read.args.push(a)
    else if (o === undefined) read.unknown.push(a)
    else if (off) read.flags.set(name.slice(3), false)
    else if (eq >= 0) read.flags.set(name, a.slice(eq + 1))
    else if (o.bool === true) read.flags.set(name, true)
    else if (i + 1 < argv.length) read.flags.set(name, argv[++i] as string)
    else throw new OptionError(`--${name} needs a value`)
  }
  return read
}

/** a table's values: each from its flag (`prefix` + its name), else its environment variable, else its default */
export function fromTable<T> (table: Table<T>, env: Env, flags: Map<string, string | boolean>, prefix = ''): T {
  const out: Record<string, unknown> = {}
  for (const [key, o] of Object.entries<Option<unknown>>(table)) {
    const name = prefix + kebab(key)
    const what = `--${name}${o.env === undefined ? '' : ` (${o.env})`}`
    const given = flags.get(name)
    const raw = o.env === undefined ? undefined : env[o.env]
    if (typeof given === 'boolean') out[key] = given
    else if (given !== undefined) out[key] = o.parse(given, what)
    else if (raw === undefined || raw === '') out[key] = o.fallback
    else if (o.bool === true) out[key] = o.fallback === true ? raw !== '0' : raw === o.envOn
    else out[key] = o.parse(raw, what)
  }
  return out as T
}

/** what a command line and an environment give: the options, the other arguments, and the unknown flags */
export interface Read<T> {
  options: T
  args: string[]
  unknown: string[]
}
/** reads the options, or ends the process with the error and where the options are documented (exit 2) */
export function orExit<T> (read: () => T, docs: string): T {
  try {
    return read()
  } catch (e) {
    if (!(e instanceof OptionError)) throw e
    process.stderr.write(`${e.message} (${docs})\n`)
    process.exit(2)
  }
}
