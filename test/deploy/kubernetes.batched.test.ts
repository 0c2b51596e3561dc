import { execFileSync } from 'node:child_process'
import { chmod, readdir, readFile, writeFile } from 'node:fs/promises'
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

async function readManifests (): Promise<Manifest[]> {
  const files = (await readdir(FOLDER)).filter(name => name.endsWith('.yaml')).sort()
  const manifests: Manifest[] = []
  for (const file of files) {
    for (const document of parseAllDocuments(await readFile(new URL(file, FOLDER), 'utf8'))) {
      if (document.errors.length > 0) throw new Error(`${file}: ${document.errors.map(error => error.message).join('; ')}`)
      manifests.push(document.toJS() as Manifest)
    }
  }
  return manifests
}

const manifests = await readManifests()
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
