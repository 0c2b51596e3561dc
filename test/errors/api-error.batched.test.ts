import t from 'tap'
import { ApiError, MockNvrError } from '../../src/errors/errors.js'
import { apiErrors } from '../../src/wire/errors.js'

t.test('an ApiError is an answer: it carries no stack, and leaves the stack trace limit as it was', async t => {
  const limit = Error.stackTraceLimit
  const error = apiErrors.countingLineNotFound('cam-1', 'line-9')
  t.ok(error instanceof ApiError)
  t.equal(error.statusCode, 404)
  t.notMatch(String(error.stack), /\n\s+at /, 'no frames captured')
  t.match(String(error.stack), 'line-9', 'the message is still there')
  t.equal(Error.stackTraceLimit, limit, 'restored')
  t.match(String(new MockNvrError('NVR_ERR_OPTIONS', 'thrown').stack), /\n\s+at /, 'a thrown error keeps its stack')
})
