import { execFileSync } from 'node:child_process'
import { chmod, copyFile, readdir, readFile, writeFile } from 'node:fs/promises'
import { join } from 'node:path'
import t from 'tap'
import { parseAllDocuments } from 'yaml'
import { StatefulSet } from 'kubernetes-models/apps/v1'
import { ConfigMap, Service } from 'kubernetes-models/v1'
import type { IContainer } from 'kubernetes-models/v1/Container'
import { parseCli } from '../../src/cli/args.js'
import { unknownVariables } from '../../src/cli/variables.js'
import { readFleetFile } from '../../src/fleet/fleet-file.js'
import { planDevices } from '../../src/fleet/fleet-options.js'
import { ROOT } from '../helpers/docs.js'

const FOLDER = new URL('deploy/kubernetes/', ROOT)
// Each kind the folder holds, checked by the class of kubernetes-models that carries Kubernetes' schema of it.
const MODELS: Record<string, new (data: never) => { validate: () => void }> = {
  'apps/v1 StatefulSet': StatefulSet,
  'v1 Service': Service,
  'v1 ConfigMap': ConfigMap
}

type Manifest = Record<string, unknown> & { apiVersion: string, kind: string, metadata: { name: string, labels?: Record<string, string> } }

/** Checks a manifest against Kubernetes' schema of its kind; throws what is wrong, or that no schema is known. */
function validate (manifest: Manifest): void {
  const Model = MODELS[`${manifest.apiVersion} ${manifest.kind}`]
  if (Model === undefined) throw new Error(`no schema for ${manifest.apiVersion} ${manifest.kind}`)
  new Model(structuredClone(manifest) as never).validate()
}

/** What kustomization.yaml may say, and what this check builds of it as kustomize does. */
interface Kustomization {
  apiVersion: string
  kind: string
  resources: string[]
  configMapGenerator: Array<{ name: string, files: string[], options?: { labels?: Record<string, string> } }>
  images: Array<{ name: string, newName?: string, newTag?: string }>
  replicas: Array<{ name: string, count: number }>
  replacements: Array<{ source: { kind: string, name: string, fieldPath: string }, targets: Array<{ select: { kind: string, name: string }, fieldPaths: string[] }> }>
}
// The kinds whose replicas kustomize's replicas field sets.
const WORKLOADS = ['Deployment', 'ReplicaSet', 'ReplicationController', 'StatefulSet']
const KUSTOMIZATION_FIELDS = ['apiVersion', 'kind', 'resources', 'configMapGenerator', 'images', 'replicas', 'replacements']

async function parseYaml (file: string, folder: URL): Promise<unknown[]> {
  const documents = parseAllDocuments(await readFile(new URL(file, folder), 'utf8'))
  for (const document of documents) if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map(error => error.message).join('; ')}`)
  return documents.map(document => document.toJS() as unknown)
}

/**
 * A kustomize field path, a.b.[name=x].c, walked in an object: the object holding the last key, and that key.
 * Throws where the path leads nowhere, as kustomize does.
 */
function fieldAt (object: unknown, fieldPath: string): { holder: Record<string, unknown>, key: string } {
  const parts = fieldPath.split('.')
  let holder = object as Record<string, unknown>
  for (const part of parts.slice(0, -1)) {
    const match = /^\[(\w+)=(.+)\]$/.exec(part)
    const next = match === null ? holder[part] : (holder as unknown as Array<Record<string, unknown>>).find(item => item[match[1] as string] === match[2])
    if (typeof next !== 'object' || next === null) throw new Error(`${fieldPath}: nothing at ${part}`)
    holder = next as Record<string, unknown>
  }
  const key = parts.at(-1) as string
  if (!(key in holder)) throw new Error(`${fieldPath}: no ${key}`)
  return { holder, key }
}

/**
 * What `kubectl apply -k` applies from a folder: its kustomization's resources, the generated ConfigMaps (named
 * without the hash of their data that kustomize adds to the name and to every reference), the images, the
 * replicas and the replacements. Only the fields this folder uses are known; any other is an error.
 */
async function buildKustomization (folder: URL): Promise<Manifest[]> {
  const [kustomization] = await parseYaml('kustomization.yaml', folder) as [Kustomization]
  const unknown = Object.keys(kustomization).filter(key => !KUSTOMIZATION_FIELDS.includes(key))
  if (unknown.length > 0) throw new Error(`kustomization.yaml: ${unknown.join(', ')} not known to this check`)
  if (kustomization.apiVersion !== 'kustomize.config.k8s.io/v1beta1' || kustomization.kind !== 'Kustomization') throw new Error('kustomization.yaml: not a Kustomization')
  const manifests: Manifest[] = []
  for (const file of kustomization.resources) manifests.push(...await parseYaml(file, folder) as Manifest[])
  for (const { name, files, options } of kustomization.configMapGenerator) {
    const data: Record<string, string> = {}
    for (const file of files) data[file.split('/').at(-1) as string] = await readFile(new URL(file, folder), 'utf8')
    manifests.push({ apiVersion: 'v1', kind: 'ConfigMap', metadata: { name, ...(options?.labels === undefined ? {} : { labels: options.labels }) }, data })
  }
  const containers = manifests.flatMap(manifest => (manifest as { spec?: { template?: { spec?: { containers?: IContainer[] } } } }).spec?.template?.spec?.containers ?? [])
  for (const { name, newName = name, newTag } of kustomization.images) {
    const using = containers.filter(container => container.image?.replace(/:[^:/]*$/, '') === name)
    if (using.length === 0) throw new Error(`images: no container runs ${name}`)
    for (const container of using) container.image = newTag === undefined ? newName : `${newName}:${newTag}`
  }
  const named = (kinds: readonly string[], name: string): Manifest => {
    const found = manifests.find(manifest => manifest.metadata.name === name && kinds.includes(manifest.kind))
    if (found === undefined) throw new Error(`no ${kinds.join(' or ')} named ${name}`)
    return found
  }
  for (const { name, count } of kustomization.replicas) (named(WORKLOADS, name) as Manifest & { spec: { replicas: number } }).spec.replicas = count
  for (const { source, targets } of kustomization.replacements) {
    const from = fieldAt(named([source.kind], source.name), source.fieldPath)
    for (const { select, fieldPaths } of targets) {
      for (const fieldPath of fieldPaths) {
        const to = fieldAt(named([select.kind], select.name), fieldPath)
        to.holder[to.key] = typeof to.holder[to.key] === 'string' ? String(from.holder[from.key]) : from.holder[from.key]
      }
    }
  }
  return manifests
}

const manifests = await buildKustomization(FOLDER)
const byKind = (kind: string) => manifests.find(manifest => manifest.kind === kind) as Manifest
const statefulSet = byKind('StatefulSet') as Manifest & { spec: { replicas: number, serviceName: string, selector: { matchLabels: Record<string, string> }, template: { metadata: { labels: Record<string, string> }, spec: { containers: IContainer[], volumes: Array<{ name: string, configMap?: { name: string }, emptyDir?: object }> } } } }
const service = byKind('Service') as Manifest & { spec: { clusterIP: string, selector: Record<string, string>, ports: Array<{ port: number, targetPort: string }> } }
const configMap = byKind('ConfigMap') as Manifest & { data: Record<string, string> }
const container = statefulSet.spec.template.spec.containers[0] as IContainer
const env = Object.fromEntries((container.env ?? []).map(variable => [variable.name, variable.value]))

t.test('every manifest in deploy/kubernetes/ passes Kubernetes\' schema of its kind', async t => {
  t.strictSame(manifests.map(manifest => manifest.kind).sort(), ['ConfigMap', 'Service', 'StatefulSet'])
  for (const manifest of manifests) t.doesNotThrow(() => { validate(manifest) }, `${manifest.kind} ${manifest.metadata.name}`)
})

t.test('deploy/kubernetes/ holds a kustomization, the files it lists and the fleet file it makes the ConfigMap of', async t => {
  const [kustomization] = await parseYaml('kustomization.yaml', FOLDER) as [Kustomization]
  const used = ['README.md', 'kustomization.yaml', ...kustomization.resources, ...kustomization.configMapGenerator.flatMap(generator => generator.files)]
  t.strictSame((await readdir(FOLDER)).sort(), [...new Set(used)].sort(), 'no file left out of kubectl apply -k, none missing')
  t.strictSame(kustomization.configMapGenerator.map(({ name, files }) => [name, files]), [['mock-nvr-fleet', ['fleet.json']]])
  t.strictSame(Object.keys(configMap.data), ['fleet.json'])
  t.strictSame(kustomization.replicas, [{ name: statefulSet.metadata.name, count: 3 }])
  t.equal(container.image, 'mock-nvr:latest')
})

t.test('the image and the number of pods are kustomize\'s usual fields, and SHARD_COUNT follows the replicas', async t => {
  const dir = t.testdir({})
  for (const file of await readdir(FOLDER)) await copyFile(new URL(file, FOLDER), join(dir, file))
  const folder = new URL(`file://${dir}/`)
  const kustomization = await readFile(new URL('kustomization.yaml', folder), 'utf8')
  await writeFile(new URL('kustomization.yaml', folder), kustomization.replace('count: 3', 'count: 5').replace('newName: mock-nvr', 'newName: registry.example/mock-nvr').replace('newTag: latest', 'newTag: 0.1.0'))
  const built = (await buildKustomization(folder)).find(manifest => manifest.kind === 'StatefulSet') as typeof statefulSet
  t.equal(built.spec.replicas, 5)
  const builtContainer = built.spec.template.spec.containers[0] as IContainer
  t.equal(builtContainer.env?.find(variable => variable.name === 'SHARD_COUNT')?.value, '5')
  t.equal(builtContainer.image, 'registry.example/mock-nvr:0.1.0')
  // What kustomize refuses, so does this check: a field it would not apply here, a file not there, a path to nothing.
  const broken = async (change: (text: string) => string) => {
    await writeFile(new URL('kustomization.yaml', folder), change(kustomization))
    return await buildKustomization(folder)
  }
  await t.rejects(broken(text => `${text}namePrefix: test-\n`), { message: 'kustomization.yaml: namePrefix not known to this check' })
  await t.rejects(broken(text => text.replace('- service.yaml', '- services.yaml')), { code: 'ENOENT' })
  await t.rejects(broken(text => text.replace('- fleet.json', '- fleets.json')), { code: 'ENOENT' })
  await t.rejects(broken(text => text.replace('[name=SHARD_COUNT]', '[name=SHARDS]')), /nothing at \[name=SHARDS\]/)
  await t.rejects(broken(text => text.replace('  - name: mock-nvr\n    newName', '  - name: nvr\n    newName')), { message: 'images: no container runs nvr' })
  await t.rejects(broken(text => text.replace('  - name: mock-nvr\n    count', '  - name: nvr\n    count')), { message: 'no Deployment or ReplicaSet or ReplicationController or StatefulSet named nvr' })
  await t.rejects(broken(text => text.replace('kind: Kustomization', 'kind: Component')), { message: 'kustomization.yaml: not a Kustomization' })
})

t.test('kubectl kustomize, where installed, builds what this check builds', async t => {
  let output: string
  try {
    output = execFileSync('kubectl', ['kustomize', FOLDER.pathname], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] })
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error
    t.plan(0, 'kubectl is not installed: the check above stands alone')
    return
  }
  // kustomize names the ConfigMap by a hash of its data, and every reference to it.
  const hashed = new RegExp(`^${configMap.metadata.name}-[a-z0-9]{10}$`)
  const unhashed = (value: unknown): unknown => {
    if (typeof value === 'string') return hashed.test(value) ? configMap.metadata.name : value
    if (Array.isArray(value)) return value.map(unhashed)
    if (typeof value === 'object' && value !== null) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, unhashed(item)]))
    return value
  }
  const byName = (list: Manifest[]) => list.map(manifest => `${manifest.kind}/${manifest.metadata.name}`).sort()
  const kubectl = parseAllDocuments(output).map(document => unhashed(document.toJS()) as Manifest)
  t.strictSame(byName(kubectl), byName(manifests))
  for (const manifest of manifests) t.strictSame(kubectl.find(each => each.kind === manifest.kind && each.metadata.name === manifest.metadata.name), manifest, `${manifest.kind} ${manifest.metadata.name}`)
})

t.test('a broken manifest fails the check', async t => {
  const broken = (change: (copy: typeof statefulSet) => void): Manifest => {
    const copy = structuredClone(statefulSet)
    change(copy)
    return copy
  }
  t.throws(() => { validate(broken(copy => { copy.spec.replicas = 'three' as never })) }, /spec\/replicas must be integer/)
  t.throws(() => { validate(broken(copy => { delete (copy.spec as Partial<typeof copy.spec>).selector })) }, /must have required property selector/)
  t.throws(() => { validate(broken(copy => { delete (copy.spec.template.spec.containers[0] as Partial<IContainer>).name })) }, /containers\/0 must have required property name/)
  t.throws(() => { validate({ ...service, spec: { ...service.spec, ports: [{ port: 'control' as never, targetPort: 'control' }] } }) }, /ports\/0\/port must be integer/)
  t.throws(() => { validate({ ...statefulSet, kind: 'StatefullSet' }) }, { message: 'no schema for apps/v1 StatefullSet' })
})

t.test('the pieces fit: the headless Service, the labels, the fleet file\'s volume and the control port', async t => {
  t.equal(statefulSet.spec.serviceName, service.metadata.name)
  t.equal(service.spec.clusterIP, 'None')
  t.match(statefulSet.spec.template.metadata.labels, service.spec.selector)
  t.match(statefulSet.spec.template.metadata.labels, statefulSet.spec.selector.matchLabels)
  const fleetVolume = statefulSet.spec.template.spec.volumes.find(volume => volume.configMap !== undefined)
  t.equal(fleetVolume?.configMap?.name, configMap.metadata.name)
  const mount = container.volumeMounts?.find(each => each.name === fleetVolume?.name)
  t.ok(Object.keys(configMap.data).some(key => `${mount?.mountPath as string}/${key}` === env.MOCK_NVR_FLEET), 'MOCK_NVR_FLEET is the ConfigMap\'s file')
  const control = container.ports?.find(port => port.name === 'control')
  t.equal(String(control?.containerPort), env.MOCK_NVR_CONTROL_PORT)
  t.equal(service.spec.ports[0]?.targetPort, 'control')
  t.equal(container.readinessProbe?.httpGet?.path, '/healthz')
  t.equal(container.livenessProbe?.httpGet?.port, 'control')
  t.strictSame(container.startupProbe?.exec?.command, ['test', '-s', env.MOCK_NVR_MANIFEST])
  const tmp = container.volumeMounts?.find(each => each.mountPath === '/tmp')
  t.ok(statefulSet.spec.template.spec.volumes.some(volume => volume.name === tmp?.name && volume.emptyDir !== undefined), 'the manifest is written to a volume of its own, the root file system being read-only')
  t.equal(env.SHARD_COUNT, String(statefulSet.spec.replicas), 'one shard per pod')
})

t.test('each pod\'s command gives mock-nvr its shard, from the pod\'s index or else its name', async t => {
  const dir = t.testdir({})
  // rm and node stand-ins: what the command would run, written out.
  for (const name of ['rm', 'node']) {
    await writeFile(join(dir, name), `#!/bin/sh\necho "${name} $* MOCK_NVR_SHARD=$MOCK_NVR_SHARD"\n`)
    await chmod(join(dir, name), 0o755)
  }
  t.strictSame(container.command, ['/bin/sh', '-c'])
  const run = (podEnv: Record<string, string>) => execFileSync('/bin/sh', ['-c', container.args?.[0] as string], { env: { PATH: dir, SHARD_COUNT: env.SHARD_COUNT as string, ...podEnv }, encoding: 'utf8' })
  for (let index = 0; index < statefulSet.spec.replicas; index++) {
    t.equal(run({ POD_INDEX: String(index), HOSTNAME: `mock-nvr-${index}` }), `rm -f ${env.MOCK_NVR_MANIFEST as string} MOCK_NVR_SHARD=\nnode dist/cli.js MOCK_NVR_SHARD=${index + 1}/${statefulSet.spec.replicas}\n`)
  }
  t.match(run({ POD_INDEX: '', HOSTNAME: 'mock-nvr-2' }), 'node dist/cli.js MOCK_NVR_SHARD=3/3\n', 'before Kubernetes 1.28, the ordinal of the pod\'s name')
  t.equal(container.env?.find(variable => variable.name === 'POD_INDEX')?.valueFrom?.fieldRef?.fieldPath, "metadata.labels['apps.kubernetes.io/pod-index']")
})

t.test('mock-nvr takes each pod\'s environment, and the pods together serve the fleet file once, 10 devices each', async t => {
  const image = Object.fromEntries([...(await readFile(new URL('Dockerfile', ROOT), 'utf8')).matchAll(/(MOCK_NVR_\w+)=(\S+)/g)].map(([, name, value]) => [name as string, value as string]))
  const dir = t.testdir(Object.fromEntries(Object.entries(configMap.data)))
  const { devices } = await readFleetFile(join(dir, 'fleet.json'))
  const served = []
  for (let index = 0; index < statefulSet.spec.replicas; index++) {
    // What mock-nvr reads of the pod's environment: the image's, the container's and the command's variables.
    const podEnv = Object.fromEntries(Object.entries({ ...image, ...env, MOCK_NVR_ADMIN_TOKEN: 'admin-secret', MOCK_NVR_SHARD: `${index + 1}/${statefulSet.spec.replicas}` })
      .filter(([name]) => name.startsWith('MOCK_NVR_')))
    t.strictSame(unknownVariables(podEnv), { warnings: [] }, 'every MOCK_NVR_ variable is one mock-nvr reads')
    const command = parseCli([], podEnv)
    const options = (command as { options: Record<string, unknown> }).options
    const plans = planDevices({ devices, port: options.port as number, shard: options.shard as string })
    t.equal(plans.length, 10)
    served.push(...plans.map(plan => `${plan.name}:${plan.options.port}`))
  }
  t.strictSame(served, devices.map((device, index) => `${device.name}:${8081 + index}`))
  t.equal(served[10], 'ber-01:8091', 'as the README says')
})

t.test('memory is sized for the devices a pod serves: about 100Mi and 0.25Mi a device, the limit twice the request', async t => {
  const mebibytes = (quantity: unknown) => Number(/^(\d+)Mi$/.exec(String(quantity))?.[1])
  const devices = (JSON.parse(configMap.data['fleet.json'] as string) as { devices: unknown[] }).devices.length
  const request = mebibytes(container.resources?.requests?.memory)
  t.ok(request >= 100 + 0.25 * Math.ceil(devices / statefulSet.spec.replicas), `${request}Mi for ${devices / statefulSet.spec.replicas} devices`)
  t.equal(mebibytes(container.resources?.limits?.memory), 2 * request)
})
