import { Server } from '@modelcontextprotocol/sdk/server/index.js'
import {
  CallToolRequestSchema, ListResourcesRequestSchema, ListResourceTemplatesRequestSchema, ListToolsRequestSchema,
  ReadResourceRequestSchema, type CallToolResult, type Tool
} from '@modelcontextprotocol/sdk/types.js'
import { TypeCompiler } from '@sinclair/typebox/compiler'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { VERSION } from '../util/version.js'
import { formatValueProblem, listValueProblems, type ValueProblem } from '../util/value-errors.js'
import { apiErrors } from '../wire/errors.js'
import type { AdminAnswer, SteeredMock } from './admin-caller.js'

export type { SteeredMock }
import { EVERY_DEVICE, inputSchemaOf, rowsFor, type VerbRow } from './verb-table.js'
import { listResources, readResource, RESOURCE_TEMPLATES } from './resources.js'

const INSTRUCTIONS = 'mock-nvr is a stand-in network video recorder. These tools steer it through its admin API: its data, faults, ' +
  'health, rate limit, scoped tokens, journal and clock. In a fleet every tool names a device; "*" names every device where the fleet ' +
  'has the verb for all at once. A refusal is a tool error with the admin API\'s own words and, for bad arguments, each field named in `problems`.'

/** An MCP server of mock-nvr's verbs (one tool per row of the verb table) and its resources, over any transport. */
export function createMcpServer (mock: SteeredMock): Server {
  const server = new Server({ name: 'mock-nvr', version: VERSION }, { capabilities: { tools: {}, resources: {} }, instructions: INSTRUCTIONS })
  const rows = rowsFor(mock.fleet)
  const tools: Tool[] = rows.map(row => ({
    name: row.name,
    description: row.description,
    inputSchema: inputSchemaOf(row, mock.fleet) as Tool['inputSchema'],
    annotations: { readOnlyHint: row.readOnly === true, destructiveHint: false, openWorldHint: false }
  }))
  const byName = new Map(rows.map(row => [row.name, row]))
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools }))
  server.setRequestHandler(CallToolRequestSchema, async ({ params }) => {
    const row = byName.get(params.name)
    if (row === undefined) return refusal({ errorCode: 'UNKNOWN_TOOL', errorMessage: `No tool is named ${JSON.stringify(params.name)}; tools/list lists them.` })
    return await callTool(mock, row, params.arguments ?? {})
  })
  server.setRequestHandler(ListResourcesRequestSchema, async () => ({ resources: await listResources(mock) }))
  server.setRequestHandler(ListResourceTemplatesRequestSchema, () => ({ resourceTemplates: RESOURCE_TEMPLATES.filter(template => template.fleet === mock.fleet).map(({ fleet: _fleet, ...template }) => template) }))
  server.setRequestHandler(ReadResourceRequestSchema, async ({ params }) => await readResource(mock, params.uri))
  return server
}

/** Calls a row's admin route with these arguments; what the admin API refuses, or a mock-nvr that does not answer, is a tool error. */
export async function callTool (mock: SteeredMock, row: VerbRow, args: Record<string, unknown>): Promise<CallToolResult> {
  const { device, ...own } = args
  const named = mock.fleet && (row.scope === 'device' || row.scope === 'fleet-too')
  if (named && (typeof device !== 'string' || device === '')) return badArguments([{ path: '/device', message: 'must be a device\'s name' + (row.scope === 'fleet-too' ? `, or "${EVERY_DEVICE}" for every device` : '') }])
  if (row.wrap !== undefined && !Object.hasOwn(own, row.wrap.name)) return badArguments([{ path: `/${row.wrap.name}`, message: `is required: ${row.wrap.description}` }])
  const { method, path } = row.call(own)
  const withBody = method === 'PUT' || method === 'POST'
  // Arguments that go into the path (a fault's id) no admin body check sees: they are checked here, in the same words.
  if (!withBody && row.body !== undefined) {
    const checker = TypeCompiler.Compile(row.body)
    if (!checker.Check(own)) return badArguments(listValueProblems(checker, own))
  }
  const body = !withBody ? undefined : row.wrap === undefined ? own : own[row.wrap.name]
  let prefix = ADMIN_PREFIX
  if (named && device !== EVERY_DEVICE) prefix = `${ADMIN_PREFIX}/devices/${encodeURIComponent(String(device))}`
  if (named && device === EVERY_DEVICE && row.scope !== 'fleet-too') return badArguments([{ path: '/device', message: `names every device, but ${row.name} acts on one device at a time: give its name` }])
  let answer: AdminAnswer
  try {
    answer = await mock.call(method, `${prefix}${path}`, body)
  } catch (error) {
    return refusal({ errorCode: 'MOCK_NVR_UNREACHABLE', errorMessage: `mock-nvr did not answer: ${reasonOf(error)}.` })
  }
  return answerOf(answer, row.wrap?.name)
}

type EnvelopeResult = { errorMessage?: string, problems?: Array<{ path: string, message: string }> } & Record<string, unknown>

// The envelope's content on success; its result (code, words, problems) as a tool error otherwise.
function answerOf ({ status, body }: AdminAnswer, wrapped: string | undefined): CallToolResult {
  const envelope = body as { result?: EnvelopeResult, content?: unknown } | null
  if (status >= 200 && status < 300) {
    const content = envelope?.content ?? null
    return { content: [{ type: 'text', text: content === null ? 'done' : JSON.stringify(content, null, 2) }] }
  }
  const result = envelope?.result ?? { success: false, httpCode: status, errorCode: 'UNEXPECTED_ANSWER', errorMessage: `mock-nvr answered ${status} without an envelope.` }
  // A wrapped body's problems are named by the argument that held it.
  if (wrapped !== undefined && result.problems !== undefined) {
    const problems = result.problems.map(problem => ({ ...problem, path: `/${wrapped}${problem.path}` }))
    return refusal({ ...result, errorMessage: apiErrors.invalidBody(problems).message, problems })
  }
  return { isError: true, content: [{ type: 'text', text: JSON.stringify(result, null, 2) }] }
}

// A refusal of arguments the admin API never sees, as it words a body's: each path and what is wrong there.
function badArguments (problems: ValueProblem[]): CallToolResult {
  return refusal({ httpCode: 400, errorCode: apiErrors.invalidBody([]).code, errorMessage: `The arguments are invalid: ${problems.map(formatValueProblem).join('; ')}.`, problems })
}

function refusal (result: Record<string, unknown>): CallToolResult {
  return { isError: true, content: [{ type: 'text', text: JSON.stringify({ success: false, ...result }, null, 2) }] }
}

/** Why a call got no answer: the system's code (ECONNREFUSED) where fetch gives one, its message otherwise. */
export function reasonOf (error: unknown): string {
  const cause = (error as { cause?: { code?: unknown, message?: unknown } }).cause
  if (typeof cause?.code === 'string') return cause.code
  return String((error as Error).message)
}
