/* global document */
// The data served: each camera as a frame with its counting lines drawn to scale, and the ways to change it.
import { call, Refusal } from './api.js'
import { count, el, showProblems, svg } from './dom.js'
import { arrowHead, parsePoints } from './geometry.js'

const WIDTH = 160
const HEIGHT = 90
const MARGIN = 3
const COLOURS = 6
/** Frames drawn at most; a filter finds the others. */
const MAX_SHOWN = 60

/** Wires the Data section; load() reads the data again. onCameras gets the camera ids after each load. */
export function dataView ({ onError, onCameras }) {
  const filter = document.querySelector('#camera-filter')
  const cameras = document.querySelector('#cameras')
  const summary = document.querySelector('#data-summary')
  const problems = document.querySelector('#data-problems')
  const editor = document.querySelector('#data-editor')
  const editorDetails = document.querySelector('#data-edit')
  let data = { cameras: [], counting_lines: [] }

  function render () {
    const wanted = filter.value.trim().toLowerCase()
    const linesOf = new Map(data.cameras.map(camera => [camera.id, []]))
    for (const line of data.counting_lines) linesOf.get(line.camera_id)?.push(line)
    const matching = data.cameras.filter(camera => camera.id.toLowerCase().includes(wanted))
    const shown = matching.slice(0, MAX_SHOWN)
    cameras.replaceChildren(...shown.map(camera => cameraCard(camera.id, linesOf.get(camera.id))))
    const counts = `${count(data.cameras.length, 'camera')}, ${count(data.counting_lines.length, 'counting line')} served`
    const filtered = wanted === '' ? '' : `; ${count(matching.length, 'camera')} match “${filter.value.trim()}”`
    const cut = shown.length < matching.length ? `; the first ${shown.length} are shown, filter by camera id for the others` : ''
    summary.textContent = `${counts}${filtered}${cut}.`
  }

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

  async function replaceWith (body, source) {
    const { cameras: cameraCount, countingLines } = await call('PUT', '/data', body)
    await load()
    summary.textContent = `Now serving ${source}: ${count(cameraCount, 'camera')}, ${count(countingLines, 'counting line')}.`
  }

  filter.addEventListener('input', render)
  document.querySelector('#reload-data').addEventListener('click', () => act(load))
  document.querySelector('#reset-data').addEventListener('click', () => act(async () => {
    await call('DELETE', '/data')
    await load()
  }))
  const upload = document.querySelector('#upload-data')
  upload.addEventListener('change', () => {
    const [file] = upload.files
    if (file === undefined) return
    upload.value = ''
    const heading = `${file.name} was not served, nothing changed:`
    if (file.size === 0) return showProblems(problems, heading, [{ path: '', problem: 'The file is empty.' }])
    return act(async () => replaceWith(await file.text(), file.name), heading)
  })
  editorDetails.addEventListener('toggle', () => {
    if (editorDetails.open && editor.value === '') editor.value = JSON.stringify(data, null, 2)
  })
  document.querySelector('#apply-data').addEventListener('click', () => act(() => replaceWith(editor.value, 'the edited data'),
    'The edited data was not served, nothing changed:'))

  return { load }
}

function cameraCard (id, lines) {
  const headingId = `camera-${id.replace(/[^\w-]/g, '_')}`
  // Colours go to the lines drawn, in turn, so the frame's first six lines never share one; a line not drawn has none.
  let drawnCount = 0
  const drawn = lines.map(line => {
    const points = parsePoints(line.counting_line)
    return { line, points, colour: points === null ? 'not-drawn-swatch' : `c${drawnCount++ % COLOURS}` }
  })
  return el('article', { class: 'camera', 'aria-labelledby': headingId },
    el('h3', { id: headingId }, el('code', {}, id), ' ', el('span', { class: 'count' }, count(lines.length, 'line'))),
    frame(id, drawn),
    lines.length === 0
      ? el('p', { class: 'muted' }, 'No counting lines.')
      : el('ul', { class: 'lines' }, drawn.map(lineItem)))
}

function frame (id, drawn) {
  const drawnCount = drawn.filter(({ points }) => points !== null).length
  const of = drawnCount === drawn.length ? 'its' : `its ${drawn.length}`
  // A margin around the picture, so a point on its edge is drawn whole.
  return svg('svg', { class: 'frame', viewBox: `${-MARGIN} ${-MARGIN} ${WIDTH + 2 * MARGIN} ${HEIGHT + 2 * MARGIN}`, role: 'img', 'aria-label': `Frame of ${id} with ${drawnCount} of ${of} lines drawn` },
    svg('rect', { class: 'frame-bg', x: 0, y: 0, width: WIDTH, height: HEIGHT }),
    drawn.filter(({ points }) => points !== null).map(({ line, colour, points }) => {
      const scaled = points.map(([x, y]) => [round(x * WIDTH), round(y * HEIGHT)])
      const [first] = scaled
      // The name beside the first point, on the side with room for it.
      const leftSide = first[0] > WIDTH * 0.6
      const labelY = first[1] > 10 ? first[1] - 3 : first[1] + 8
      return svg('g', { class: `line ${colour}` },
        svg('title', {}, `${line.name}: ${line.counting_line}`),
        svg('polyline', { points: scaled.map(point => point.join(',')).join(' ') }),
        svg('circle', { cx: first[0], cy: first[1], r: 1.6 }),
        svg('polygon', { points: arrowHead(scaled.at(-2), scaled.at(-1), 4) }),
        svg('text', { x: leftSide ? first[0] - 1 : first[0] + 1, y: labelY, 'text-anchor': leftSide ? 'end' : 'start' }, line.name))
    }))
}

function round (value) {
  return Math.round(value * 100) / 100
}

function lineItem ({ line, colour, points }) {
  return el('li', {},
    el('span', { class: `swatch ${colour}`, 'aria-hidden': 'true' }),
    el('strong', {}, line.name), ' ', el('code', {}, line.id),
    el('span', { class: 'facts' }, facts(line)),
    el('br'),
    el('code', { class: 'geometry' }, line.counting_line),
    points === null ? el('span', { class: 'not-drawn' }, ' not drawn: not two or more x,y points in 0–1') : '')
}

/** " class person · anchor center", leaving out what the data leaves empty. */
function facts (line) {
  const known = [['class', line.class], ['anchor', line.anchor]].filter(([, value]) => typeof value === 'string' && value.trim() !== '')
  return known.length === 0 ? '' : ` ${known.map(([name, value]) => `${name} ${value}`).join(' · ')}`
}
