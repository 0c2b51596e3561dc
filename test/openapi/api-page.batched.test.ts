import t from 'tap'
import Fastify, { type FastifyError, type FastifyInstance, type FastifyReply, type FastifyRequest } from 'fastify'
import { API_PAGE_ROUTES, letGoOfClientsThatLeft } from '../../src/openapi/api-page.js'
import { pageHandlers } from '../../src/openapi/api-page-plugin.js'
import { build } from '../helpers/app.js'

t.test('the root redirects to the API page', async t => {
  const app = await build(t)
  for (const method of ['GET', 'HEAD'] as const) {
    const response = await app.inject({ method, url: '/' })
    t.equal(response.statusCode, 302, method)
    t.equal(response.headers.location, '/docs')
  }
})

t.test('the API page and its files are served without a token', async t => {
  const app = await build(t)
  for (const url of ['/docs', '/docs/']) {
    const page = await app.inject(url)
    t.equal(page.statusCode, 200, url)
    t.match(page.headers['content-type'], 'text/html')
    t.match(page.body, '<title>mock-nvr API</title>')
    t.match(page.body, 'swagger-ui-bundle.js')
  }
  const bundle = await app.inject('/docs/static/swagger-ui-bundle.js')
  t.equal(bundle.statusCode, 200)
  t.match(bundle.headers['content-type'], 'javascript')
})

t.test('the page keeps the token across reloads and shows the mock-nvr logo', async t => {
  const app = await build(t)
  const initializer = (await app.inject('/docs/static/swagger-initializer.js')).body
  t.match(initializer, '"persistAuthorization":true')
  t.match(initializer, 'data:image/svg+xml;base64,')
})

t.test('the page reads the same document as /openapi.json', async t => {
  const app = await build(t)
  const document = (await app.inject('/openapi.json')).json()
  t.strictSame((await app.inject('/docs/json')).json(), document)
})

t.test('a missing file of the page gets the error envelope', async t => {
  const app = await build(t)
  const response = await app.inject('/docs/static/nothing-here.js')
  t.equal(response.statusCode, 404)
  t.strictSame(response.json(), { result: { success: false, httpCode: 404, errorCode: 'PATH_NOT_FOUND', errorMessage: 'Nothing is served at this path.' }, content: null })
})

t.test('the app serves every route the page plugin has, each with the plugin\'s own handler', async t => {
  const handlers = await pageHandlers('/docs', () => ({}) as never)
  t.strictSame([...handlers.keys()].sort(), API_PAGE_ROUTES.map(({ url }) => url).sort())
})

t.test('a client gone before its page file was sent is let go; any other error is answered as usual', async t => {
  const app = Fastify()
  let answered: unknown
  app.setErrorHandler(error => { answered = error })
  const answer = letGoOfClientsThatLeft(app as unknown as FastifyInstance)
  let destroyed = false
  const request = { raw: { destroy: () => { destroyed = true } } } as unknown as FastifyRequest
  const gone = Object.assign(new Error('closed'), { code: 'ERR_STREAM_PREMATURE_CLOSE' }) as FastifyError
  answer(gone, request, {} as FastifyReply)
  t.ok(destroyed, 'the connection is dropped')
  t.equal(answered, undefined, 'and nothing answered')
  const other = Object.assign(new Error('other'), { code: 'OTHER' }) as FastifyError
  answer(other, request, {} as FastifyReply)
  t.equal(answered, other, 'the app\'s error handler answers the rest')
  await app.close()
})
