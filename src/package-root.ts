/**
 * The package's folder. This file sits one level below it in src/ and in dist/, and the bundled CLI,
 * dist/cli.js, inlines it at the same depth, so one relative URL finds the package from all three.
 */
export const PACKAGE_ROOT = new URL('../', import.meta.url)
