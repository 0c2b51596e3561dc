// Imported first by the CLI, so an old Node.js gets one clear line before any dependency fails to load.
import { refuseOldNode } from '../util/node-version.js'

refuseOldNode(process.versions.node, line => process.stderr.write(line), code => process.exit(code))
