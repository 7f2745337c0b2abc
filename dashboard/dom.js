// The dashboard's small DOM helpers: a query, and elements built from attributes and children.
export const $ = sel => document.querySelector(sel)
export const el = (tag, attrs = {}, ...children) => {
  const node = document.createElement(tag)
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'class') node.className = v
    // through the CSSOM: the page's CSP refuses style attributes (style-src 'self', no 'unsafe-inline')
    else if (k === 'style') node.style.cssText = v
    else if (k.startsWith('on')) node.addEventListener(k.slice(2), v)
    else node.setAttribute(k, v)
  }
  for (const c of children.flat()) node.append(c instanceof Node ? c : document.createTextNode(String(c)))
  return node
}
export const svgEl = (tag, attrs = {}) => {
  const node = document.createElementNS('http://www.w3.org/2000/svg', tag)
  for (const [k, v] of Object.entries(attrs)) node.setAttribute(k, v)
  return node
}
