// Preloaded (--import) into a CLI a test starts. On SIGUSR2 it prints on stderr what the event loop holds
// ("loop: […]", process.getActiveResourcesInfo()); should the loop ever run empty, it prints "loop: empty". So a
// test asks a process whether it is still held, instead of waiting to see whether it exits.
process.on('SIGUSR2', () => { process.stderr.write(`loop: ${JSON.stringify(process.getActiveResourcesInfo())}\n`) })
process.on('beforeExit', () => { process.stderr.write('loop: empty\n') })
