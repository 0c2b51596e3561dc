import { McpError, ErrorCode, type ReadResourceResult, type Resource, type ResourceTemplate } from '@modelcontextprotocol/sdk/types.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import type { FixtureData } from '../contract/schemas.js'
import type { SteeredMock } from './admin-caller.js'

const SCHEME = 'mock-nvr://'
const JSON_TYPE = 'application/json'

/** The resources' templates: a device's data per camera and its journal; a fleet's devices are named in them. */
export const RESOURCE_TEMPLATES: ReadonlyArray<ResourceTemplate & { fleet: boolean }> = [
  { fleet: false, uriTemplate: `${SCHEME}cameras/{camera}`, name: 'camera', title: 'A camera\'s data', description: 'The camera and its counting lines, as the device serves them.', mimeType: JSON_TYPE },
  { fleet: true, uriTemplate: `${SCHEME}devices/{device}/cameras/{camera}`, name: 'camera', title: 'A camera\'s data', description: 'A device\'s camera and its counting lines, as the device serves them.', mimeType: JSON_TYPE },
  { fleet: true, uriTemplate: `${SCHEME}devices/{device}/requests`, name: 'device-journal', title: 'A device\'s journal', description: 'The requests one device received, oldest first.', mimeType: JSON_TYPE }
]

/** What a resource reads: the mock-nvr path, and what of its answer it gives. */
interface ResourcePlan {
  path: string
  pick: (content: unknown) => unknown
}

const whole = (content: unknown): unknown => content

/** The data as GET /__admin/data answers it: both lists, always. */
type ServedData = Required<FixtureData>

/** The resources an agent can read without a tool call: the OpenAPI document, the journal, a fleet's manifest, each camera's data. */
export async function listResources (mock: SteeredMock): Promise<Resource[]> {
  const fixed: Resource[] = [
    { uri: `${SCHEME}openapi.json`, name: 'openapi', title: 'The OpenAPI document', description: 'The device API mock-nvr serves, as OpenAPI 3.', mimeType: JSON_TYPE },
    { uri: `${SCHEME}requests`, name: 'journal', title: 'The journal', description: mock.fleet ? 'Every device\'s requests as one, oldest first, each naming its device.' : 'The requests the device received, oldest first.', mimeType: JSON_TYPE }
  ]
  if (!mock.fleet) {
    const data = await contentAt(mock, `${ADMIN_PREFIX}/data`) as ServedData
    return [...fixed, ...data.cameras.map(({ id }) => cameraResource(`${SCHEME}cameras/${encodeURIComponent(id)}`, id))]
  }
  // Page by page, as the admin API answers them: each page is a request of its own, so no device waits behind the list.
  const devices: Array<{ name: string, cameras: string[] }> = []
  for (let after: string | null | undefined; after !== null;) {
    const page = await contentAt(mock, `${ADMIN_PREFIX}/devices${after === undefined ? '' : `?after=${encodeURIComponent(after)}`}`) as { devices: typeof devices, next: string | null }
    devices.push(...page.devices)
    after = page.next
  }
  return [
    ...fixed,
    { uri: `${SCHEME}manifest`, name: 'manifest', title: 'The fleet\'s manifest', description: 'Every device: its name, URL, cameras and state.', mimeType: JSON_TYPE },
    ...devices.flatMap(({ name, cameras }) => [
      { uri: `${SCHEME}devices/${encodeURIComponent(name)}/requests`, name: `${name} journal`, description: `The requests ${name} received.`, mimeType: JSON_TYPE },
      ...cameras.map(id => cameraResource(`${SCHEME}devices/${encodeURIComponent(name)}/cameras/${encodeURIComponent(id)}`, `${name} ${id}`))
    ])
  ]
}

function cameraResource (uri: string, name: string): Resource {
  return { uri, name: `camera ${name}`, description: 'The camera and its counting lines.', mimeType: JSON_TYPE }
}

/** Reads a resource; an unknown URI, or a device or camera there is none of, is the protocol's invalid-params error. */
export async function readResource (mock: SteeredMock, uri: string): Promise<ReadResourceResult> {
  const plan = planOf(mock.fleet, uri)
  if (plan === undefined) throw new McpError(ErrorCode.InvalidParams, `No resource is at ${uri}; resources/list and resources/templates/list name them.`)
  const content = plan.pick(await contentAt(mock, plan.path))
  if (content === undefined) throw new McpError(ErrorCode.InvalidParams, `No camera is at ${uri}.`)
  return { contents: [{ uri, mimeType: JSON_TYPE, text: JSON.stringify(content, null, 2) }] }
}

function planOf (fleet: boolean, uri: string): ResourcePlan | undefined {
  if (!uri.startsWith(SCHEME)) return undefined
  const parts = uri.slice(SCHEME.length).split('/').map(part => decodeURIComponent(part))
  const [first, second, third, fourth] = parts
  if (parts.length === 1 && first === 'openapi.json') return { path: '/openapi.json', pick: whole }
  if (parts.length === 1 && first === 'requests') return { path: `${ADMIN_PREFIX}/requests`, pick: whole }
  if (!fleet) return parts.length === 2 && first === 'cameras' ? { path: `${ADMIN_PREFIX}/data`, pick: camera(second as string) } : undefined
  if (parts.length === 1 && first === 'manifest') return { path: `${ADMIN_PREFIX}/devices`, pick: whole }
  if (first !== 'devices' || second === undefined) return undefined
  const device = `${ADMIN_PREFIX}/devices/${encodeURIComponent(second)}`
  if (parts.length === 3 && third === 'requests') return { path: `${device}/requests`, pick: whole }
  if (parts.length === 4 && third === 'cameras') return { path: `${device}/data`, pick: camera(fourth as string) }
  return undefined
}

// One camera of a device's data, with its counting lines; undefined when the device has no such camera.
function camera (id: string): (content: unknown) => unknown {
  return content => {
    const data = content as ServedData
    const found = data.cameras.find(candidate => candidate.id === id)
    return found === undefined ? undefined : { camera: found, counting_lines: data.counting_lines.filter(line => line.camera_id === id) }
  }
}

// The content of a path's answer; a refusal (a device there is none of) is the protocol's error, in the admin API's words.
async function contentAt (mock: SteeredMock, path: string): Promise<unknown> {
  const { status, body } = await mock.call('GET', path)
  const envelope = body as { result?: { errorMessage?: string }, content?: unknown }
  if (status === 200 && path === '/openapi.json') return body
  if (status === 200) return envelope.content
  throw new McpError(ErrorCode.InvalidParams, envelope.result?.errorMessage ?? `mock-nvr answered ${status}.`)
}
