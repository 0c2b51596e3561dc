import { readFile } from 'node:fs/promises'
import { describeFsError } from '../data/fixtures.js'
import { holdsCertificate } from '../target-client/target-connection.js'
import { UsageError } from '../errors/errors.js'

/** The PEM text of `--ca FILE`, checked to hold a certificate; any problem is a usage error naming the file. */
export async function readCaFile (file: string): Promise<string> {
  let pem: string
  try {
    pem = await readFile(file, 'utf8')
  } catch (error) {
    throw new UsageError(`--ca ${file}: ${describeFsError(error)}`)
  }
  if (!holdsCertificate(pem)) throw new UsageError(`--ca ${file}: holds no PEM certificate (-----BEGIN CERTIFICATE-----)`)
  return pem
}
