// The knobs of eval/ as one typed object, read once the way the training options are (training/readers/flags.ts):
// each from its flag (node --import tsx eval/custom_classifier.ts --tuning --zs-neighbours=0), else its environment
// variable (the older way, still accepted), else its default. docs/models/training-options.md lists them.
import {
  flag,
  flagsOf,
  fromTable,
  num,
  opt,
  orExit,
  splitArgv,
  type Env,
  type Read,
  type Table
} from '../training/readers/flags.js'

export interface EvalOptions {
  /** custom_classifier: neighbours joining a bare label name's vector (default: the manifest's settings) */
  zsNeighbours?: number
  /** custom_classifier: how many of the most frequent words neighbours are searched among (default: the manifest's) */
  zsPool?: number
  /** custom_classifier: the softmax temperature of each word's vote (default: the manifest's) */
  zsT?: number
  /** custom_classifier: the power the vote shares are raised to (default: the manifest's) */
  zsSharpness?: number
  /** custom_classifier: subtract each label's similarity to text in general (default: the manifest's) */
  zsCommon?: boolean
  /** custom_classifier: the accuracy on the tuning sets instead of the table (default off) */
  tuning: boolean
}

const TABLE: Table<EvalOptions> = {
  zsNeighbours: opt('ZS_NEIGHBOURS', undefined, num),
  zsPool: opt('ZS_POOL', undefined, num),
  zsT: opt('ZS_T', undefined, num),
  zsSharpness: opt('ZS_SHARPNESS', undefined, num),
  zsCommon: flag('ZS_COMMON', undefined, 'true'),
  tuning: flag(undefined, false)
}
/** every eval option by flag name, for the docs test */
export const EVAL_FLAGS = new Map(flagsOf(TABLE))

/** the eval options of an environment and a command line (the arguments after the script's) */
export function evalOptions (env: Env = process.env, argv = process.argv.slice(2)): Read<EvalOptions> {
  const { flags, args, unknown } = splitArgv(argv, EVAL_FLAGS)
  return { options: fromTable(TABLE, env, flags), args, unknown }
}

/** this process's eval options, read once */
export const { options: evalOpts } = orExit(() => evalOptions(), 'the options: docs/models/training-options.md')
/** the environment of a child process eval starts (eval/speed.ts's service): this one's, with `extra` */
export const childEnv = (extra: Env): Env => ({ ...process.env, ...extra })
