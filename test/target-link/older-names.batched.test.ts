import t from 'tap'
import { DeviceLinkError, recordDevice, recordTarget, TargetLinkError, verifyDevice, verifyTarget, type DeviceLinkOptions } from '../../src/index.js'

t.test('the first names of verifyTarget, recordTarget, TargetLinkError and TargetLinkOptions still work', async t => {
  t.equal(verifyDevice, verifyTarget)
  t.equal(recordDevice, recordTarget)
  t.equal(DeviceLinkError, TargetLinkError)
  const options: DeviceLinkOptions = { target: 'http://127.0.0.1:1', token: 'token', cameras: [] }
  const error = await recordDevice(options).catch((error: unknown) => error as DeviceLinkError)
  t.ok(error instanceof DeviceLinkError, 'what throws TargetLinkError throws DeviceLinkError')
  t.equal((error as DeviceLinkError).option, 'cameras')
})
