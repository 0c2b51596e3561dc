#!/usr/bin/env node
// The image's HEALTHCHECK (slim images have no curl): exits 0 when the mock configured by the
// same MOCK_NVR_* variables answers /healthz with 200, else 1.
import { runHealthcheck } from './cli/health-probe.js'

process.exitCode = await runHealthcheck(process.env, process.stderr)
