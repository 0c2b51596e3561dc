/* global document */
// Building elements without innerHTML: every value from the server goes in as text.

const SVG = 'http://www.w3.org/2000/svg'

/** An HTML element with attributes (false/undefined ones left out) and children (strings become text). */
export function el (tag, attributes = {}, ...children) {
  return fill(document.createElement(tag), attributes, children)
}

/** The same for SVG. */
export function svg (tag, attributes = {}, ...children) {
  return fill(document.createElementNS(SVG, tag), attributes, children)
}

function fill (element, attributes, children) {
  for (const [name, value] of Object.entries(attributes)) {
    if (value === undefined || value === false || value === null) continue
    element.setAttribute(name, value === true ? '' : String(value))
  }
  for (const child of children.flat()) {
    if (child === undefined || child === null || child === false) continue
    element.append(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child)
  }
  return element
}

/** Shows a list of problems (one per JSON path) in a container, or empties it. */
export function showProblems (container, heading, problems = []) {
  container.replaceChildren()
  if (problems.length === 0) return
  container.append(el('p', {}, heading), el('ul', {}, problems.map(({ path, problem }) =>
    el('li', {}, path === '' ? '' : el('code', {}, path), path === '' ? '' : ': ', problem))))
}

/** "1 camera", "2 cameras". */
export function count (number, noun) {
  return `${number} ${noun}${number === 1 ? '' : 's'}`
}
