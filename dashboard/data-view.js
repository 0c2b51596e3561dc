// @ts-check
/// <reference lib="dom" />
/* global HTMLInputElement, HTMLTextAreaElement, HTMLDetailsElement */
// The data served: each camera as a frame with its counting lines, anchors and IN sides drawn to scale, and the ways to change it.
import { call, Refusal } from './api.js'
import { count, el, find, showProblems, svg } from './dom.js'
import { arrowHead, frameFor, inSide, readAnchor, readLine } from './geometry.js'

/** @typedef {import('../src/contract/schemas.js').CountingLine} CountingLine */
/** @typedef {Required<import('../src/contract/schemas.js').FixtureData>} ServedData */
/** @typedef {import('./geometry.js').Point} Point */
/** @typedef {NonNullable<ReturnType<typeof inSide>>} InSide */
/**
 * A line as its frame shows it: drawn (its points in frame units, its anchor, its IN side) or listed with the reason.
 * @typedef {{ line: CountingLine, colour: string, points: Point[], anchorAt: Point | undefined, side: InSide | null, unmarked: string | undefined, reason?: undefined }
 *   | { line: CountingLine, colour: string, reason: string, points?: undefined, unmarked?: undefined }} DrawnLine
 */

const WIDTH = 160
const HEIGHT = 90
const MARGIN = 3
const COLOURS = 6
/** How long the arrow marking a line's IN side is, in frame units. */
const IN_ARROW = 9
/** How far from the frame's sides a name under a line is centred at most. */
const LABEL_INSET = 28
/** Frames drawn at most; a filter finds the others. */
const MAX_SHOWN = 60

/**
 * Wires the Data section; load() reads the data again. onCameras gets the camera ids after each load.
 * @param {{ onError: (error: unknown) => void, onCameras: (ids: string[]) => void }} options
 */
export function dataView ({ onError, onCameras }) {
  const filter = find('#camera-filter', HTMLInputElement)
  const cameras = find('#cameras')
  const summary = find('#data-summary')
  const problems = find('#data-problems')
  const editor = find('#data-editor', HTMLTextAreaElement)
  const editorDetails = find('#data-edit', HTMLDetailsElement)
  /** @type {ServedData} */
  let data = { cameras: [], counting_lines: [] }

  function render () {
    const wanted = filter.value.trim().toLowerCase()
    /** @type {Map<string, CountingLine[]>} */
    const linesOf = new Map(data.cameras.map(camera => [camera.id, []]))
    for (const line of data.counting_lines) linesOf.get(line.camera_id)?.push(line)
    const matching = data.cameras.filter(camera => camera.id.toLowerCase().includes(wanted))
    const shown = matching.slice(0, MAX_SHOWN)
    cameras.replaceChildren(...shown.map(camera => cameraCard(camera.id, linesOf.get(camera.id) ?? [])))
    const counts = `${count(data.cameras.length, 'camera')}, ${count(data.counting_lines.length, 'counting line')} served`
    const filtered = wanted === '' ? '' : `; ${count(matching.length, 'camera')} match “${filter.value.trim()}”`
    const cut = shown.length < matching.length ? `; the first ${shown.length} are shown, filter by camera id for the others` : ''
    summary.textContent = `${counts}${filtered}${cut}.`
  }

  /**
   * @param {() => Promise<unknown>} action
   * @param {string} [heading]
   */
  async function act (action, heading) {
    showProblems(problems)
    try {
      await action()
    } catch (error) {
      if (error instanceof Refusal) showProblems(problems, heading, error.problems)
      else onError(error)
    }
  }

  async function load () {
    data = await call('GET', '/data')
    render()
    onCameras(data.cameras.map(camera => camera.id))
    if (!editorDetails.open) editor.value = ''
  }

  /**
   * @param {string} body the JSON text, sent as it is
   * @param {string} source what it is called on the page
   */
  async function replaceWith (body, source) {
    const { cameras: cameraCount, countingLines } = await call('PUT', '/data', body)
    await load()
    summary.textContent = `Now serving ${source}: ${count(cameraCount, 'camera')}, ${count(countingLines, 'counting line')}.`
  }

  filter.addEventListener('input', render)
  find('#reload-data').addEventListener('click', () => act(load))
  find('#reset-data').addEventListener('click', () => act(async () => {
    await call('DELETE', '/data')
    await load()
  }))
  const upload = find('#upload-data', HTMLInputElement)
  upload.addEventListener('change', () => {
    const [file] = upload.files ?? []
    if (file === undefined) return
    upload.value = ''
    const heading = `${file.name} was not served, nothing changed:`
    if (file.size === 0) return showProblems(problems, heading, [{ path: '', message: 'The file is empty.' }])
    return act(async () => replaceWith(await file.text(), file.name), heading)
  })
  editorDetails.addEventListener('toggle', () => {
    if (editorDetails.open && editor.value === '') editor.value = JSON.stringify(data, null, 2)
  })
  find('#apply-data').addEventListener('click', () => act(() => replaceWith(editor.value, 'the edited data'),
    'The edited data was not served, nothing changed:'))

  return { load }
}

/**
 * @param {string} id
 * @param {CountingLine[]} lines
 */
function cameraCard (id, lines) {
  const headingId = `camera-${id.replace(/[^\w-]/g, '_')}`
  const read = lines.map(line => ({ line, geometry: readLine(line.counting_line), anchor: readAnchor(line.anchor) }))
  // Pixels name their frame: the smallest common one that holds every point of the camera's lines drawn and their
  // anchors. Fractions fit any frame.
  const pixels = read.filter(({ geometry }) => geometry.reason === undefined)
    .flatMap(({ geometry, anchor }) => [...geometry.pixels ?? [], ...anchor.pixel === undefined ? [] : [anchor.pixel]])
  const size = pixels.length === 0 ? undefined : frameFor(pixels)
  // A line in pixels has its points in `pixels`, so `size` is there whenever this is called.
  const [width, height] = size ?? [1, 1]
  /** @type {(point: Point) => Point} */
  const fromPixels = ([x, y]) => [round(x * WIDTH / width), round(y * HEIGHT / height)]
  /** @type {(point: Point) => Point} */
  const fromFractions = ([x, y]) => [round(x * WIDTH), round(y * HEIGHT)]
  // Colours go to the lines drawn, in turn, so the frame's first six lines never share one; a line not drawn has none.
  let drawnCount = 0
  /** @type {DrawnLine[]} */
  const drawn = read.map(({ line, geometry, anchor }) => {
    if (geometry.reason !== undefined) return { line, reason: geometry.reason, colour: 'not-drawn-swatch' }
    const scaled = geometry.pixels?.map(fromPixels) ?? geometry.fractions?.map(fromFractions) ?? []
    const anchorAt = anchor.pixel === undefined ? undefined : fromPixels(anchor.pixel)
    const side = anchorAt === undefined ? null : inSide(scaled, anchorAt)
    const unmarked = anchor.reason ?? (side === null ? 'the anchor lies on the line, or in line with one of its segments' : undefined)
    return { line, points: scaled, anchorAt, side, unmarked, colour: `c${drawnCount++ % COLOURS}` }
  })
  // The frame's name: its size in pixels, or fractions when only x,y pairs are drawn; none when nothing is.
  const frameName = size !== undefined ? `${size[0]}×${size[1]}` : drawnCount > 0 ? 'fractions 0–1' : undefined
  return el('article', { class: 'camera', 'aria-labelledby': headingId },
    el('h3', { id: headingId }, el('code', {}, id), ' ', el('span', { class: 'count' }, count(lines.length, 'line')),
      frameName === undefined ? '' : el('span', { class: 'frame-size' }, ` ${frameName}`)),
    frame(id, drawn, frameName),
    lines.length === 0
      ? el('p', { class: 'muted' }, 'No counting lines.')
      : el('ul', { class: 'lines' }, drawn.map(lineItem)))
}

/**
 * @param {string} id
 * @param {DrawnLine[]} drawn
 * @param {string | undefined} frameName
 */
function frame (id, drawn, frameName) {
  const shown = drawn.flatMap(line => line.points === undefined ? [] : [line])
  const of = shown.length === drawn.length ? 'its' : `its ${drawn.length}`
  // A margin around the picture, so a point on its edge is drawn whole.
  return svg('svg', { class: 'frame', 'data-frame': frameName ?? 'none', viewBox: `${-MARGIN} ${-MARGIN} ${WIDTH + 2 * MARGIN} ${HEIGHT + 2 * MARGIN}`, role: 'img', 'aria-label': `Frame of ${id}${frameName === undefined ? '' : ` (${frameName})`} with ${shown.length} of ${of} lines drawn` },
    svg('rect', { class: 'frame-bg', x: 0, y: 0, width: WIDTH, height: HEIGHT }),
    shown.map(({ line, colour, points, anchorAt, side }) => {
      const first = /** @type {Point} */ (points[0])
      return svg('g', { class: `line ${colour}` },
        svg('title', {}, `${line.name}: ${line.counting_line}, anchor ${line.anchor}`),
        svg('polyline', { points: points.map(point => point.join(',')).join(' ') }),
        svg('circle', { class: 'start', cx: first[0], cy: first[1], r: 1.2 }),
        anchorAt === undefined ? null : svg('circle', { class: 'anchor', cx: anchorAt[0], cy: anchorAt[1], r: 1.8 }),
        side === null ? null : inMark(side),
        nameLabel(line.name, first, side))
    }))
}

/**
 * The line's name: on its OUT side, across from the IN arrow, when it has one; else beside its first point.
 * @param {string} name
 * @param {Point} first
 * @param {InSide | null} side
 */
function nameLabel (name, first, side) {
  if (side === null) {
    const leftSide = first[0] > WIDTH * 0.6
    return svg('text', { x: leftSide ? first[0] - 1 : first[0] + 1, y: first[1] > 10 ? first[1] - 3 : first[1] + 8, 'text-anchor': leftSide ? 'end' : 'start' }, name)
  }
  const { from, towards } = side
  const y = Math.min(HEIGHT - 1, Math.max(5, from[1] - towards[1] * 5 + 1.8))
  // Beside a line that runs up and down; under or over one that runs across, kept off the frame's sides.
  if (Math.abs(towards[0]) > 0.7) {
    return svg('text', { x: round(from[0] - Math.sign(towards[0]) * 4), y: round(y), 'text-anchor': towards[0] > 0 ? 'end' : 'start' }, name)
  }
  const x = Math.min(WIDTH - LABEL_INSET, Math.max(LABEL_INSET, from[0] - towards[0] * 5))
  return svg('text', { x: round(x), y: round(y), 'text-anchor': 'middle' }, name)
}

/**
 * An arrow from the middle of the line's segment nearest the anchor, square to it, towards the IN side.
 * @param {InSide} side
 */
function inMark ({ from, towards }) {
  /** @type {Point} */
  const to = [round(from[0] + towards[0] * IN_ARROW), round(from[1] + towards[1] * IN_ARROW)]
  const label = [round(from[0] + towards[0] * (IN_ARROW + 4)), round(from[1] + towards[1] * (IN_ARROW + 4) + 1.8)]
  return svg('g', { class: 'in-mark' },
    svg('line', { x1: round(from[0]), y1: round(from[1]), x2: to[0], y2: to[1] }),
    svg('polygon', { points: arrowHead(from, to, 3) }),
    svg('text', { x: label[0], y: label[1], 'text-anchor': 'middle' }, 'IN'))
}

/** @param {number} value */
function round (value) {
  return Math.round(value * 100) / 100
}

/** @param {DrawnLine} drawn */
function lineItem ({ line, colour, reason, unmarked }) {
  return el('li', {},
    el('span', { class: `swatch ${colour}`, 'aria-hidden': 'true' }),
    el('strong', {}, line.name), ' ', el('code', {}, line.id),
    el('span', { class: 'facts' }, facts(line)),
    el('br'),
    el('code', { class: 'geometry' }, line.counting_line),
    reason === undefined ? '' : el('span', { class: 'not-drawn' }, ` not drawn: ${reason}`),
    unmarked === undefined ? '' : el('span', { class: 'unmarked' }, ` IN side not marked: ${unmarked}`))
}

/**
 * " class person · anchor center", leaving out what the data leaves empty.
 * @param {CountingLine} line
 */
function facts (line) {
  const known = [['class', line.class], ['anchor', line.anchor]].filter(([, value]) => typeof value === 'string' && value.trim() !== '')
  return known.length === 0 ? '' : ` ${known.map(([name, value]) => `${name} ${value}`).join(' · ')}`
}
