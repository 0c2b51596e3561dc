// Writes dashboard/server-values.js, what the dashboard takes from the server's own code.
import { writeFileSync } from 'node:fs'
import { dashboardValues } from '../src/admin-api/dashboard-values.js'

writeFileSync(new URL('../dashboard/server-values.js', import.meta.url), dashboardValues())
