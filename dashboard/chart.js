// The dashboard's usage chart: units per operation and day over the last 30 days, as stacked SVG
// bars with a legend, and the same figures as a table.
import { opColour } from './colours.js'
import { $, el, svgEl } from './dom.js'

export function renderHistory (history) {
  const days = []
  for (let i = 29; i >= 0; i--) days.push(new Date(Date.now() - i * 86400000).toISOString().slice(0, 10))
  const ops = [...new Set(history.map(h => h.op))].sort()
  const per = new Map(days.map(d => [d, new Map()]))
  for (const h of history) per.get(h.day)?.set(h.op, h.units)
  const max = Math.max(1, ...days.map(d => [...per.get(d).values()].reduce((a, b) => a + b, 0)))
  const W = 600
  const H = 160
  const bw = W / days.length
  const svg = svgEl('svg', {
    viewBox: `0 0 ${W} ${H + 20}`,
    width: '100%',
    role: 'img',
    'aria-label': `Units per day for the last 30 days, up to ${max} a day`
  })
  days.forEach((d, i) => {
    let y = H
    ops.forEach((op, j) => {
      const u = per.get(d).get(op) ?? 0
      if (u === 0) return
      const h = (u / max) * (H - 10)
      y -= h
      const r = svgEl('rect', { x: i * bw + 1, y, width: bw - 2, height: h, class: 'op', fill: opColour(j) })
      r.append(svgEl('title'))
      r.lastChild.textContent = `${d} ${op}: ${u}`
      svg.append(r)
    })
  })
  for (const [i, anchor] of [
    [0, 'start'],
    [days.length - 1, 'end']
  ]) {
    const label = svgEl('text', { x: i === 0 ? 0 : W, y: H + 16, 'text-anchor': anchor, class: 'axis' })
    label.textContent = days[i]
    svg.append(label)
  }
  const swatch = j => {
    // a style property, not a style attribute, which a Content-Security-Policy may forbid
    const s = el('span', { class: 'swatch', 'aria-hidden': 'true' })
    s.style.background = opColour(j)
    return s
  }
  const legend = el(
    'ul',
    { class: 'legend' },
    ops.map((op, j) => el('li', {}, swatch(j), op))
  )
  $('#chart-history').replaceChildren(svg, legend)
  $('#history-table tbody').replaceChildren(
    ...history
      .slice()
      .reverse()
      .map(h => el('tr', {}, el('td', {}, h.day), el('td', {}, h.op), el('td', {}, h.units)))
  )
}
