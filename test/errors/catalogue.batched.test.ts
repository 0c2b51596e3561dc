import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import t from 'tap'
import * as library from '../../src/index.js'
import * as mswEntry from '../../src/msw/index.js'
import { createNvrHandlers } from '../../src/msw/index.js'
import { ERROR_CODES, THROWN_ERROR_CODES, type ThrownErrorName } from '../../src/errors/catalogue.js'
import { ApiError, BodyDecodingError, FixtureWriteError, MockNvrError, NoAnswerError, ProblemsError, UsageError } from '../../src/errors/errors.js'
import { SAMPLE_DATA } from '../helpers/app.js'

const SRC = fileURLToPath(new URL('../../src/', import.meta.url))
const problem = { path: '/status', message: 'must be at least 100' }
const report = { violations: [] } as unknown as ConstructorParameters<typeof library.RecordRefusedError>[0]

// One of each, made as the code that throws it makes it.
const SAMPLES: Record<ThrownErrorName, MockNvrError> = {
  OptionsError: new library.OptionsError('option port must be a whole number from 0 to 65535, not "80"'),
  SettingError: new library.SettingError('rateLimit', 'rateLimit must be a whole number from 1 to 1000000, or null to turn it off, not 0'),
  ClockError: new library.ClockError('the clock is real: start with clock \'manual\' to move it by hand'),
  UsageError: new UsageError('unknown flag --prot'),
  TlsError: new library.TlsError('cannot read the certificate cert.pem'),
  FixtureError: new library.FixtureError([{ file: 'a.json', ...problem }]),
  ScopedTokensError: new library.ScopedTokensError([problem]),
  InvalidFaultError: new library.InvalidFaultError([problem]),
  HealthSpecError: new library.HealthSpecError([problem]),
  ScheduleFileError: new library.ScheduleFileError('schedule.json', [problem]),
  ListenError: new library.ListenError('EADDRINUSE', 'port 80 on 127.0.0.1 is already in use'),
  FleetListenError: new library.FleetListenError('nvr-001', 80, Object.assign(new Error('in use'), { code: 'EADDRINUSE' })),
  TargetLinkError: new library.TargetLinkError('name at least one camera to read', 'cameras'),
  RecordRefusedError: new library.RecordRefusedError(report),
  NoAnswerError: new NoAnswerError('the connection was refused', true),
  BodyDecodingError: new BodyDecodingError('its Content-Encoding "zstd" is not one this client reads'),
  FixtureWriteError: new FixtureWriteError('cannot write x.json')
}

t.test('every error class has its own code from the catalogue, and its name', async t => {
  for (const [name, error] of Object.entries(SAMPLES)) {
    t.equal(error.code, THROWN_ERROR_CODES[name as ThrownErrorName], name)
    t.equal(error.name, name)
    t.type(error, MockNvrError)
    t.type(error, Error)
  }
})

t.test('every code is unique, answered or thrown, and every thrown one is NVR_ERR_ and upper snake case', async t => {
  const codes = [...Object.values(ERROR_CODES), ...Object.values(THROWN_ERROR_CODES)]
  t.equal(new Set(codes).size, codes.length)
  for (const code of Object.values(THROWN_ERROR_CODES)) t.match(code, /^NVR_ERR_[A-Z_]+$/)
})

t.test('every error class of src/ is in the catalogue: a new one fails here until it has its code', async t => {
  const classes = (folder: string): string[] => readdirSync(folder, { withFileTypes: true }).flatMap(entry => entry.isDirectory()
    ? classes(join(folder, entry.name))
    : [...readFileSync(join(folder, entry.name), 'utf8').matchAll(/class (\w+)(?:<[^>]*>)? extends (?:Error|MockNvrError|ProblemsError)\b/g)].map(([, name]) => name as string))
  const bases = new Set(['MockNvrError', 'ProblemsError', ApiError.name])
  t.strictSame(classes(SRC).filter(name => !bases.has(name)).sort(), Object.keys(THROWN_ERROR_CODES).sort())
})

t.test('an answered error carries the code of its answer', async t => {
  const refusal = new ApiError(404, ERROR_CODES.cameraNotFound, 'No camera has the id "x".')
  t.equal(refusal.code, 'CAMERA_NOT_FOUND')
  t.type(refusal, MockNvrError)
})

t.test('errors listing problems share one base, with the problems as data', async t => {
  for (const name of ['FixtureError', 'ScopedTokensError', 'InvalidFaultError', 'HealthSpecError', 'ScheduleFileError'] as const) {
    t.type(SAMPLES[name], ProblemsError, name)
    t.match((SAMPLES[name] as ProblemsError).problems, [problem], name)
  }
  t.strictSame(SAMPLES.ScheduleFileError.message, 'Invalid schedule:\n  schedule.json: /status: must be at least 100')
})

t.test('the library exports each of its errors, the bases and both catalogues from its entry', async t => {
  const exported = ['MockNvrError', 'ProblemsError', 'OptionsError', 'TlsError', 'FixtureError', 'ScopedTokensError', 'InvalidFaultError',
    'HealthSpecError', 'ScheduleFileError', 'ListenError', 'FleetListenError', 'TargetLinkError', 'RecordRefusedError'] as const
  for (const name of exported) t.type(library[name], 'function', name)
  t.equal(library.THROWN_ERROR_CODES, THROWN_ERROR_CODES)
  t.equal(library.ERROR_CODES, ERROR_CODES)
  t.equal(library.DeviceLinkError, library.TargetLinkError, 'the older name is the same class')
  for (const name of ['MockNvrError', 'ProblemsError', 'OptionsError', 'FixtureError', 'ScopedTokensError', 'InvalidFaultError'] as const) {
    t.equal(mswEntry[name], library[name], `mock-nvr/msw exports the same ${name}`)
  }
  t.equal(mswEntry.THROWN_ERROR_CODES, THROWN_ERROR_CODES)
})

t.test('what the library throws can be told by its code', async t => {
  await t.rejects(library.startMockNvr({ port: -1, logLevel: 'silent' }), { code: 'NVR_ERR_OPTIONS', name: 'OptionsError' })
  await t.rejects(library.loadFixtures(fileURLToPath(new URL('./no-such-folder/', import.meta.url))), { code: 'NVR_ERR_FIXTURES' })
  await t.rejects(library.startMockFleet({ count: 0 }), { code: 'NVR_ERR_OPTIONS' })
  await t.rejects(library.verifyTarget({ target: 'http://127.0.0.1:1', token: 't', cameras: [] }), { code: 'NVR_ERR_TARGET_LINK' })
  const nvr = createNvrHandlers({ baseUrl: 'http://nvr.test', data: SAMPLE_DATA, tokens: ['t'] })
  t.throws(() => nvr.injectFault({ status: 99 }), { code: 'NVR_ERR_FAULT_SPEC', problems: [{ path: '/status' }] })
  t.throws(() => nvr.setScopedTokens([{ token: 't', cameras: ['cam-1'] }]), { code: 'NVR_ERR_SCOPED_TOKENS' })
  t.throws(() => nvr.use({ cameras: [{ id: '' }] }), { code: 'NVR_ERR_FIXTURES' })
  t.throws(() => createNvrHandlers({ baseUrl: 'nowhere' }), { code: 'NVR_ERR_OPTIONS' })
})
