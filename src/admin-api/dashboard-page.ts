import { readdir, readFile } from 'node:fs/promises'
import { extname } from 'node:path'
import type { FastifyInstance } from 'fastify'
import { PACKAGE_ROOT } from '../util/package-root.js'
import { ADMIN_PREFIX } from '../contract/paths.js'
import { route } from './routing.js'

/** Where the dashboard is served: under the admin prefix, but open, as it holds no data; its calls need the admin token. */
export const DASHBOARD_PATH = `${ADMIN_PREFIX}/ui`
/** The page's files, in the package. */
export const DASHBOARD_FOLDER = new URL('dashboard/', PACKAGE_ROOT)

const CONTENT_TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.svg': 'image/svg+xml'
}

/** Its own files only: no inline script or style, no other host, no frames, no form posts. */
const PAGE_HEADERS = {
  'content-security-policy': "default-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
  'x-content-type-options': 'nosniff',
  'referrer-policy': 'no-referrer',
  'cache-control': 'no-cache'
}

interface PageFile {
  type: string
  content: Buffer
}

/**
 * Serves the dashboard's files at /__admin/ui/: read once here, from the top of the folder, each with the
 * content type of its extension (other files are not served). index.html is the page itself.
 */
export async function registerDashboard (app: FastifyInstance, folder: URL = DASHBOARD_FOLDER): Promise<void> {
  const files = await readPageFiles(folder)
  for (const [name, file] of files) {
    const url = name === 'index.html' ? `${DASHBOARD_PATH}/` : `${DASHBOARD_PATH}/${name}`
    route(app, url, {
      GET: (_request, reply) => reply.headers(PAGE_HEADERS).type(file.type).send(file.content)
    })
  }
}

async function readPageFiles (folder: URL): Promise<Map<string, PageFile>> {
  const files = new Map<string, PageFile>()
  for (const entry of await readdir(folder, { withFileTypes: true })) {
    const type = CONTENT_TYPES[extname(entry.name)]
    if (!entry.isFile() || type === undefined) continue
    files.set(entry.name, { type, content: await readFile(new URL(entry.name, folder)) })
  }
  return files
}
