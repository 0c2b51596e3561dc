// npm test runs the checks (type check, ESLint, the OpenAPI lint) with this, side by side: each one is a
// single process on one core, and CI has two. Each one's output is printed whole once it ends, in the order
// given, so nothing interleaves; the exit code is 1 if any of them failed.
import { spawn } from 'node:child_process'

const runs = process.argv.slice(2).map(script => new Promise(resolve => {
  const child = spawn('npm', ['run', script], { stdio: ['ignore', 'pipe', 'pipe'] })
  const output = []
  child.stdout.on('data', chunk => output.push(chunk))
  child.stderr.on('data', chunk => output.push(chunk))
  child.on('error', error => resolve({ script, failure: error.message, output }))
  child.on('close', (code, signal) => resolve({ script, failure: code === 0 ? undefined : `exit ${code ?? signal}`, output }))
}))

for (const run of runs) {
  const { script, failure, output } = await run
  process.stdout.write(Buffer.concat(output))
  if (failure !== undefined) {
    process.stdout.write(`npm run ${script} failed (${failure})\n`)
    process.exitCode = 1
  }
}
