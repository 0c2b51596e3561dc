import t from 'tap'
import { describeStartFailure, openFilesLimit } from '../../src/cli/start-failure.js'
import { FleetListenError } from '../../src/errors/errors.js'

// A kernel's refusal as Node gives it: no descriptors are used up to make one.
const emfile = Object.assign(new Error('listen EMFILE: too many open files 127.0.0.1:21021'), { code: 'EMFILE' })

t.test('too many open files names the limit, what the fleet needs and ulimit -n', async t => {
  t.equal(describeStartFailure(new FleetListenError('nvr-1021', 21_021, emfile, 2000), '--host', () => 1024),
    'cannot listen: device nvr-1021 cannot listen on port 21021: too many open files (EMFILE): this process may open 1024 files (ulimit -n), and a fleet of 2000 devices needs 2000 for its listeners, one more for each open connection and a few hundred for Node; raise the limit in the shell that starts mock-nvr, like ulimit -n 5000, and start again; no device was started')
  t.equal(describeStartFailure(new FleetListenError('nvr-01', 20_001, emfile), '--host', () => undefined),
    'cannot listen: device nvr-01 cannot listen on port 20001: too many open files (EMFILE): this process may not open that many files, and the fleet needs one per device, one more for each open connection and a few hundred for Node; raise the limit in the shell that starts mock-nvr, like ulimit -n 65536, and start again; no device was started')
  t.equal(describeStartFailure(new FleetListenError('nvr-002', 8082, Object.assign(new Error('in use'), { code: 'EADDRINUSE' }), 2)),
    'cannot listen: device nvr-002 cannot listen on port 8082: it is already in use; no device was started', 'any other failure as before')
})

t.test('the limit is read from /proc/self/limits, and is unknown where that cannot be read', async t => {
  const limits = 'Limit                     Soft Limit           Hard Limit           Units\nMax open files            1024                 1048576              files\n'
  t.equal(openFilesLimit(() => limits), 1024)
  t.equal(openFilesLimit(() => 'Max open files            unlimited            unlimited            files\n'), undefined)
  t.equal(openFilesLimit(() => { throw Object.assign(new Error('no such file'), { code: 'ENOENT' }) }), undefined)
  const own = openFilesLimit()
  t.ok(own === undefined || (Number.isInteger(own) && own > 0), `this process's own: ${String(own)}`)
})
