import { existsSync } from 'node:fs'

/**
 * The package's folder: the nearest one above this module that holds package.json. This module runs from
 * src/util/, from dist/util/ and, inlined, from the bundled CLI in dist/, so no fixed relative path fits.
 */
export const PACKAGE_ROOT = findPackageRoot(new URL('.', import.meta.url))

function findPackageRoot (folder: URL): URL {
  while (!existsSync(new URL('package.json', folder))) {
    const parent = new URL('..', folder)
    /* c8 ignore next: this module ships inside the package, so a package.json is always found above it */
    if (parent.href === folder.href) throw new Error('mock-nvr cannot find its package.json')
    folder = parent
  }
  return folder
}
