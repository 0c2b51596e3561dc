// Imported first by index.ts, so that on an old Node.js importing mock-nvr throws one clear error, before a
// dependency fails to load with ERR_REQUIRE_ESM.
import { requireNode } from './util/node-version.js'

requireNode(process.versions.node)
