// The playground's readable answers: score bars, entities highlighted in their text, boxes drawn
// over the analysed image, and the view of each operation's answer built from them.
import { el, svgEl } from './dom.js'

function scoreBars (scores) {
  return el(
    'ul',
    { class: 'scores' },
    Object.entries(scores)
      .sort((a, b) => b[1] - a[1])
      .map(([label, p]) =>
        el(
          'li',
          {},
          el('span', { class: 'label' }, label),
          el(
            'span',
            { class: 'barwrap', 'aria-hidden': 'true' },
            el('span', { class: 'fill', style: `width:${(p * 100).toFixed(1)}%` })
          ),
          el('span', { class: 'pct' }, `${(p * 100).toFixed(1)}%`)
        )
      )
  )
}

function highlight (text, entities) {
  const p = el('p', { class: 'ner' })
  let at = 0
  for (const e of entities) {
    p.append(
      text.slice(at, e.start),
      el(
        'mark',
        { class: `cat-${e.category}`, title: `${e.category} ${(e.confidence_score * 100).toFixed(0)}%` },
        text.slice(e.start, e.end),
        el('small', {}, ` ${e.category}`)
      )
    )
    at = e.end
  }
  p.append(text.slice(at))
  return p
}

function imageView (source, boxes) {
  const src = source instanceof File ? URL.createObjectURL(source) : source
  const wrap = el('div', { class: 'imgwrap' })
  const img = el('img', { src, alt: 'the analysed image' })
  wrap.append(img)
  img.addEventListener('load', () => {
    const svg = svgEl('svg', {
      viewBox: `0 0 ${img.naturalWidth} ${img.naturalHeight}`,
      class: 'boxes',
      'aria-hidden': 'true'
    })
    for (const b of boxes) {
      svg.append(svgEl('rect', { x: b.box.x, y: b.box.y, width: b.box.width, height: b.box.height }))
      const t = svgEl('text', {
        x: b.box.x + 4,
        y: b.box.y + Math.max(24, img.naturalHeight / 30),
        'font-size': Math.max(16, img.naturalHeight / 30)
      })
      t.textContent = b.label
      svg.append(t)
    }
    wrap.append(svg)
  })
  return wrap
}

export function readable (op, json, texts, batch, image) {
  const one = i => (batch ? i : undefined)
  const pick = (arr, i) => (i === undefined ? arr : arr[i])
  const out = []
  const count = batch ? texts.length : 1
  for (let n = 0; n < count; n++) {
    const i = one(n)
    const head = batch ? [el('h4', {}, texts[n])] : []
    switch (op) {
      case 'sentiment':
        out.push(...head, scoreBars(pick(json.sentiment, i)))
        break
      case 'emotion':
        out.push(...head, scoreBars(pick(json.emotion, i)))
        break
      case 'sarcasm':
        out.push(...head, scoreBars(batch ? json[n] : json))
        break
      case 'intent':
        out.push(...head, scoreBars(batch ? json.intent[n].intent : json.intent))
        break
      case 'new/intent': {
        const r = batch ? json.intent[n] : json
        out.push(...head, scoreBars(r.intent))
        if (r.feedback) out.push(el('h5', {}, 'Feedback'), scoreBars(r.feedback))
        break
      }
      case 'taxonomy':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.taxonomy, i).map(t => el('li', {}, `${t.tag} (${(t.confidence_score * 100).toFixed(1)}%)`))
          )
        )
        break
      case 'keywords':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.keywords, i).map(k => el('li', {}, `${k.keyword} (${(k.confidence_score * 100).toFixed(0)}%)`))
          )
        )
        break
      case 'ner':
        out.push(highlight(texts[n], pick(json.entities, i)))
        break
      case 'similarity':
        out.push(scoreBars({ similarity: json.similarity_score }))
        break
      case 'language_detection': {
        const g = batch ? json.batch[n] : json
        out.push(...head, scoreBars({ [`${g.output} (${g.lang_code})`]: g.prob }))
        break
      }
      case 'facial_emotion':
        out.push(
          json.faces.length === 0
            ? el('p', {}, 'No face found.')
            : scoreBars(Object.fromEntries(json.facial_emotion.map(e => [e.tag, e.score])))
        )
        if (image) {
          out.push(
            imageView(
              image,
              json.faces.map(f => ({ box: f.box, label: f.facial_emotion[0].tag }))
            )
          )
        }
        break
      case 'abuse': {
        const r = batch ? json.abuse[n] : json
        out.push(...head, el('p', {}, `${r.sentence_type} (${(r.confidence_score * 100).toFixed(1)}%)`))
        break
      }
      case 'target_sentiment': {
        const r = batch ? json.batch[n] : json
        out.push(
          highlight(
            texts[n],
            r.offsets.map(o => ({ ...o, category: r.aspect, confidence_score: 1 }))
          ),
          scoreBars(r.sentiment)
        )
        break
      }
      case 'custom_classifier':
        out.push(scoreBars(Object.fromEntries(json.taxonomy.map(t => [t.category ?? t.tag, t.confidence_score]))))
        break
      case 'phrase_extractor':
        out.push(
          ...head,
          el(
            'ol',
            { class: 'tags' },
            pick(json.keywords, i).map(k => el('li', {}, `${k.keyword} (${k.relevance_score})`))
          )
        )
        break
      case 'nsfw':
        out.push(el('p', {}, `${json.output} (${(json.prob * 100).toFixed(1)}%)`))
        if (image) out.push(imageView(image, []))
        break
      case 'object_recognizer':
        out.push(
          el(
            'ol',
            { class: 'tags' },
            json.output.map(o => el('li', {}, `${o.tag} (${(o.score * 100).toFixed(0)}%)`))
          )
        )
        if (image) {
          out.push(
            imageView(
              image,
              (json.boxes ?? []).map(b => ({ box: b.box, label: b.tag }))
            )
          )
        }
        break
    }
  }
  return out
}
