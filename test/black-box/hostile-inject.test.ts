import fc from 'fast-check'
import { RealClock } from '../../src/util/real-clock.js'
import t from 'tap'
import { checkAnswer } from '../helpers/answer-invariants.js'
import { Device } from '../../src/device/device.js'
import { TokenPolicy } from '../../src/wire/token-policy.js'
import { CorsPolicy } from '../../src/wire/cors.js'
import { DataStore } from '../../src/data/data-store.js'
import { datasetFromData } from '../../src/data/dataset.js'
import { build } from '../helpers/app.js'
import {
  ACCEPTED_TOKEN, ADMIN_TOKEN, body, credentials, headerObject, HOSTILE_DATA, method, otherHeaders, PROPERTY_SEED, propertyRuns, target
} from '../helpers/hostile-requests.js'

const RUNS = propertyRuns(400)

t.test(`generated requests always get an answer the contract allows (inject, seed ${PROPERTY_SEED}, ${RUNS} runs)`, async t => {
  const control = new Device({ name: 'nvr', clock: new RealClock(), store: new DataStore(datasetFromData(HOSTILE_DATA)), tokens: new TokenPolicy([ACCEPTED_TOKEN], [ADMIN_TOKEN]), cors: new CorsPolicy() })
  const app = await build(t, { device: control, adminToken: ADMIN_TOKEN })
  await fc.assert(fc.asyncProperty(method, target, credentials, otherHeaders, body, async (verb, { path, found }, auth, other, payload) => {
    // A URL that no client can send (a raw line break) is not a request at all.
    fc.pre(URL.canParse(path, 'http://localhost'))
    const headers = headerObject(auth, other)
    const response = await app.inject({ method: verb as 'GET', url: path, headers, ...(payload === undefined ? {} : { payload }) })
    // inject resolves the URL as any client would (`/nvr/v1/..` is `/`): judge by what the server received.
    const received = response.raw.req.url as string
    checkAnswer({ method: verb, path: received, headers, accepted: auth.authorization !== undefined && auth.accepted, admin: auth.admin, found }, {
      status: response.statusCode,
      headers: response.headers,
      body: response.body
    })
    // An admin call may change the data or inject a fault on purpose; the next request starts afresh.
    if (auth.admin === true) control.reset()
  }), { seed: PROPERTY_SEED, numRuns: RUNS })

  const after = await app.inject({ url: '/nvr/v1/cameras/cam-1/counting_lines/line-1', headers: { authorization: `Bearer ${ACCEPTED_TOKEN}` } })
  t.equal(after.statusCode, 200, 'the server answers normally afterwards')
  t.equal(after.json().content.id, 'line-1')
})
