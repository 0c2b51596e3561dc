// Run by tap before any test file (.taprc `before`): the CLI that tests spawn, bundled again if a source is newer.
import { buildCliUnderTest } from './cli-under-test.js'

buildCliUnderTest()
