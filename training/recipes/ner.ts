// npm run train -- ner: the next version folder of model-store/ner, reproducing version 1, from
// ../shared/datasets/ner (fixed seeds). One averaged structured perceptron per language over the hashed token
// features of lib/text/ner/features.ts; its emission table is written as a uint8-quantised TF.js weight (served by
// lib/text/ner/tagger.ts, which sums its rows per token), its transition matrix, word lexicon, confidence
// temperature and per-type confidence thresholds beside it. Prints per epoch the training token errors and
// validation F1; about 10 minutes on 2 cores in all, 8 of them German's. German trains on its only in-domain gold
// data, GermEval dev, so it has no validation set: it is measured by 5-fold cross-validation (crossValidate in
// training/trainers/ner-cv.ts, about 7 minutes), then trained on all of it. `npm run train -- ner --cv-de` runs only
// that cross-validation and writes nothing. Each language's corpora and settings are in
// training/readers/ner-sources.ts; the tagger's training in training/trainers/perceptron.ts. NER_LANGS=en,de,
// NER_EPOCHS, NER_BUCKETS, NER_DE_MIX, NER_DE_GOLD, NER_DE_ADAPT=0, NER_DE_LEXW, NER_DE_LEX=0, NER_DE_NOUNS=0,
// NER_DE_NAMES=0, NER_DE_BAG, NER_DE_SILVER, NER_NAMES_MINPOP, NER_O_PENALTIES (a grid, e.g. 0,4,8: the O penalty is
// then chosen by the cross-validation), NER_DE_PARTIAL (silver as partly labelled), NER_DE_AUG and NER_DE_AUGPOOL
// (gold sentences with their names replaced), NER_CV_FOLDS and NER_OUT override for experiments only, each as
// a flag too (--ner-langs=en,de; docs/models/training-options.md); docs/models/ner.md says what each gave.
import { mkdir, writeFile, stat } from 'node:fs/promises'
import { join } from 'node:path'
import { fileIO } from '../../lib/runtime/tf-io.js'
import { FEATURES, NounForms } from '../../lib/text/ner/features.js'
import { LABELS, NUM_LABELS } from '../../lib/text/ner/labels.js'
import {
  FOLDS,
  GERMAN_NOUNS,
  LOWER_CASE_WORDS,
  NAME_LISTS,
  germanNouns,
  lexicons,
  lowerCaseWords,
  nameLists
} from '../trainers/ner-lexicon.js'
import { MAX_CHARS, quantise } from '../../lib/text/ner/tagger.js'
import { wnut17, type Sentence } from '../readers/ner.js'
import { retokenize } from '../readers/ner-transforms.js'
import { LANGS, SEED } from '../readers/ner-sources.js'
import { trainPerceptron } from '../trainers/perceptron.js'
import { evaluate } from '../trainers/perceptron-tagger.js'
import { fitTagTemperature, fitThresholds } from '../trainers/perceptron-confidence.js'
import { BUCKETS, CV_ONLY, GRID, log, show } from '../trainers/ner-settings.js'
import { encode } from '../trainers/ner-fit.js'
import { crossValidate } from '../trainers/ner-cv.js'
import { NerOutput } from '../trainers/ner-output.js'
import { nextVersion, versionOf } from '../readers/store.js'
import { options } from '../readers/options.js'

const t0 = performance.now()

const langs = CV_ONLY ? ['de'] : options.nerLangs
const out = new NerOutput()
const { metrics, notes, temperature, minConfidence, caseless, data } = out
for (const lang of langs) {
  const spec = LANGS[lang]
  if (spec === undefined) throw new Error(`no NER spec for ${lang}`)
  const t1 = performance.now()
  // training and validation see the tokens the service will cut (retokenize in ner-data.ts)
  const retok = (x: Sentence): Sentence => retokenize(x, lang)
  const trainSents: Sentence[] = []
  const partial: boolean[] = []
  for (const s of spec.train) {
    const rows = s.read()
    trainSents.push(...rows.map(retok))
    for (let i = 0; i < rows.length; i++) partial.push(s.partial === true)
    data.push({ name: `${s.name} [${lang}]`, path: s.path, licence: s.licence, split: s.split, rows: rows.length })
  }
  let nouns: NounForms | undefined
  if (spec.lowerWords === true) {
    const names = await nameLists()
    const lw = lowerCaseWords(wnut17('wnut17train.conll').map(x => x.words))
    nouns = NounForms.of(lw.words, names, true)
    caseless.push(lang)
    data.push({
      ...LOWER_CASE_WORDS,
      name: `${LOWER_CASE_WORDS.name} [${lang}, a feature, not training sentences]`,
      split: `${lw.words.size} words, from ${lw.texts} texts and training sentences`,
      rows: lw.words.size
    })
    data.push({
      ...NAME_LISTS,
      name: `${NAME_LISTS.name} [${lang}, a feature, not training sentences]`,
      split: `one-word names: ${names.first.size} first names, ${names.last.size} surnames, ${names.place.size} places`,
      rows: names.first.size + names.last.size + names.place.size
    })
  }
  if (spec.nouns === true) {
    const names = !options.nerDeNames ? undefined : await nameLists()
    const g = germanNouns(names)
    nouns = g.nouns
    data.push({
      ...GERMAN_NOUNS,
      name: `${GERMAN_NOUNS.name} [${lang}, a feature, not training sentences]`,
      split: `every case and number of ${g.lemmas} nouns: ${g.forms} forms, stored as ${nouns.hashes.length} hashes`,
      rows: g.forms
    })
    if (names !== undefined && nouns.names !== undefined) {
      const n = nouns.names
      data.push({
        ...NAME_LISTS,
        name: `${NAME_LISTS.name} [${lang}, a feature, not training sentences]`,
        split:
          `one-word names: ${names.first.size} first names, ${names.last.size} surnames, ` +
          `${names.place.size} places, stored as ${n.first.length} + ${n.last.length} + ${n.place.length} hashes`,
        rows: names.first.size + names.last.size + names.place.size
      })
    }
  }
  if (spec.cv !== undefined) {
    crossValidate(lang, spec, spec.cv, trainSents, retok, nouns, partial, out)
    continue
  }
  if (spec.val === undefined) throw new Error(`NER spec for ${lang} has neither val nor cv`)
  const valSents = spec.val.read().map(retok)
  data.push({
    name: `${spec.val.name} [${lang}, validation]`,
    path: spec.val.path,
    licence: spec.val.licence,
    split: spec.val.split,
    rows: valSents.length
  })
  const lex = spec.lexicon ? lexicons(trainSents) : undefined
  const tr = encode(trainSents, i => lex?.folds[i % FOLDS], nouns)
  const va = encode(valSents, () => lex?.full, nouns)
  log(
    `ner ${lang}: ${tr.length} training sentences (${tr.reduce((a, d) => a + d.n, 0)} tokens), ` +
      `${va.length} validation; features in ${((performance.now() - t1) / 1000).toFixed(1)} s`
  )
  const epochs = options.nerEpochs ?? spec.epochs
  const { model, epoch, val } = trainPerceptron(tr, va, { buckets: BUCKETS, epochs, seed: SEED, log, name: lang })
  const q = quantise(model.W)
  const served = { ...model, W: q.dequantised }
  log(
    `ner ${lang}: kept epoch ${epoch}: F1 ${val.f1.toFixed(4)}; after uint8 quantisation ${show(evaluate(served, va))}`
  )
  temperature[lang] = fitTagTemperature(served, va)
  const fit = fitThresholds(served, va, temperature[lang], GRID)
  minConfidence[lang] = fit.thresholds
  const final = fit.val
  log(
    `ner ${lang}: temperature ${temperature[lang]}; ` +
      `confidence thresholds PER/ORG/LOC ${fit.thresholds.join('/')}: ${show(final)}`
  )
  out.saveLanguage(lang, q, lex?.full, model.T, nouns)
  metrics.push({
    dataset: spec.val.name,
    split: spec.val.split,
    metric:
      "entity F1 (exact span, PER/ORG/LOC; sentences cut by the service's tokeniser; " +
      `P ${final.p.toFixed(3)} R ${final.r.toFixed(3)})`,
    value: Number(final.f1.toFixed(4)),
    baseline: spec.val.baseline
  })
  notes.push(
    `${lang}: ${epoch} of ${epochs} epochs, temperature ${Number(temperature[lang]?.toFixed(3))}, ` +
      `PER/ORG/LOC entities below confidence ${(minConfidence[lang] ?? []).join('/')} dropped`
  )
}

if (CV_ONLY) process.exit(0)

const dir = options.nerOut ?? nextVersion('ner')
await mkdir(dir, { recursive: true })
const all = Buffer.concat(out.buffers)
const meta = {
  buckets: BUCKETS,
  features: FEATURES,
  labels: LABELS,
  languages: langs,
  maxChars: MAX_CHARS,
  temperature,
  minConfidence,
  caseless
}
await fileIO(join(dir, 'model.json')).save!({
  format: 'ner-perceptron',
  generatedBy: 'training/recipes/ner.ts',
  weightSpecs: out.weightSpecs,
  weightData: all.buffer.slice(all.byteOffset, all.byteOffset + all.byteLength),
  userDefinedMetadata: meta
})
const manifest = {
  name: 'ner',
  version: versionOf(dir),
  kind: 'ner-tagger',
  description:
    'Named entities (name = person, group = organisation, place = location) in English, Spanish, Dutch and ' +
    'German: per-language averaged structured perceptrons over hashed token features with BIOES Viterbi decoding.',
  languages: langs,
  labels: ['name', 'group', 'place'],
  inputs: [
    {
      name: 'ids',
      dtype: 'int32',
      shape: [null, FEATURES],
      description:
        'hashed feature ids of each token (lib/text/ner/features.ts), gathered from <lang>/emissions and summed'
    }
  ],
  outputs: [
    {
      name: 'scores',
      dtype: 'float32',
      shape: [null, NUM_LABELS],
      description:
        `per-token scores of ${LABELS.join(' ')}; ` +
        'Viterbi with <lang>/transitions gives the spans, MISC is not reported'
    }
  ],
  files: ['model.json', 'weights.bin'],
  training: {
    command: 'npm run train -- ner',
    seed: SEED,
    data,
    notes:
      `${BUCKETS} hashed buckets x ${NUM_LABELS} labels per language, ${FEATURES} feature templates per token ` +
      '(words and lower-cased words in a +-2 window, word bigrams, shapes, prefixes and suffixes, capitalisation ' +
      `patterns; for ${langs.filter(l => LANGS[l]?.nouns === true).join(', ') || 'no language'}, whether a word is, ` +
      'or ends in, a common-noun form of german-pos-dict, its capitalisation saying little where every noun has ' +
      'one, and whether it is a listed first name, surname or place (the name lists below); for ' +
      `${langs.filter(l => LANGS[l]?.lowerWords === true).join(', ') || 'no language'}, whether a word, lower-cased, ` +
      'is one mostly written in lower case where case is free (a capitalised common word: sentence-initial words, ' +
      'interjections, headings) and whether it is a listed name or place), emission tables quantised to uint8; ' +
      "training and validation sentences re-cut by the service's tokeniser (labels carried over) so that both see " +
      `what serving sees; for ${langs.filter(l => LANGS[l]?.lexicon === true).join(', ')}, a lexicon (hashed ` +
      'lower-cased word -> its most frequent type in the training data, jackknifed over 10 folds in training); ' +
      "confidence is the mean forward-backward probability of an entity's token labels, with a per-language " +
      `temperature fitted to validation log-loss. ${notes.join('; ')}. ` +
      (langs.some(l => LANGS[l]?.val !== undefined)
        ? `${langs.filter(l => LANGS[l]?.val !== undefined).join(', ')}: epoch count, temperature and confidence ` +
          'threshold are selected on the validation sets the metrics below come from, so those figures are ' +
          'slightly optimistic.'
        : '') +
      ` Texts are read up to ${MAX_CHARS} UTF-16 code units.`
  },
  metrics,
  created: new Date().toISOString()
}
await writeFile(join(dir, 'manifest.json'), JSON.stringify(manifest, null, 2) + '\n')
log(
  `wrote ${dir} (${((await stat(join(dir, 'weights.bin'))).size / 1e6).toFixed(2)} MB weights) ` +
    `in ${((performance.now() - t0) / 1000).toFixed(0)} s`
)
