// @ts-check
/// <reference lib="dom" />
/* global document */
// Building elements without innerHTML: every value from the server goes in as text.

const SVG = 'http://www.w3.org/2000/svg'

/** @typedef {import('../src/util/value-errors.js').ValueProblem} ValueProblem */
/** @typedef {Record<string, string | number | boolean | null | undefined>} Attributes */
/** @typedef {Node | string | number | false | null | undefined} Leaf */
/** @typedef {Leaf | Leaf[]} Child */

/**
 * An HTML element with attributes (false/undefined ones left out) and children (strings become text).
 * @template {keyof HTMLElementTagNameMap} Tag
 * @param {Tag} tag
 * @param {Attributes} [attributes]
 * @param {Child[]} children
 * @returns {HTMLElementTagNameMap[Tag]}
 */
export function el (tag, attributes = {}, ...children) {
  return fill(document.createElement(tag), attributes, children)
}

/**
 * The same for SVG.
 * @param {string} tag
 * @param {Attributes} [attributes]
 * @param {Child[]} children
 * @returns {SVGElement}
 */
export function svg (tag, attributes = {}, ...children) {
  return fill(/** @type {SVGElement} */ (document.createElementNS(SVG, tag)), attributes, children)
}

/**
 * @template {Element} E
 * @param {E} element
 * @param {Attributes} attributes
 * @param {Child[]} children
 */
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

/**
 * The page's element for a selector, of the type the page gives it: one missing is a defect of index.html.
 * @template {Element} [T=HTMLElement]
 * @param {string} selector
 * @param {new (...args: any[]) => T} [type]
 * @returns {T}
 */
export function find (selector, type) {
  const found = document.querySelector(selector)
  if (found === null || (type !== undefined && !(found instanceof type))) throw new Error(`index.html has no ${selector}`)
  return /** @type {T} */ (found)
}

/**
 * Shows a list of problems (one per JSON path) in a container, or empties it.
 * @param {Element} container
 * @param {string} [heading]
 * @param {ValueProblem[]} [problems]
 */
export function showProblems (container, heading = '', problems = []) {
  container.replaceChildren()
  if (problems.length === 0) return
  container.append(el('p', {}, heading), el('ul', {}, problems.map(({ path, message }) =>
    el('li', {}, path === '' ? '' : el('code', {}, path), path === '' ? '' : ': ', message))))
}

/**
 * "1 camera", "2 cameras".
 * @param {number} number
 * @param {string} noun
 */
export function count (number, noun) {
  return `${number} ${noun}${number === 1 ? '' : 's'}`
}
