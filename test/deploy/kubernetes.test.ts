// deploy/kubernetes: every object valid against the Kubernetes schemas (kubernetes-models, offline:
// kubectl cannot dry-run without an API server), and the objects agree with each other and with
// the service (probe paths it serves, the container port, labels, Secret keys, resources set).
import t from 'tap'
import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { parseAllDocuments } from 'yaml'
import { Deployment, StatefulSet } from 'kubernetes-models/apps/v1'
import { Secret, Service } from 'kubernetes-models/v1'
import { HorizontalPodAutoscaler } from 'kubernetes-models/autoscaling/v2'
import { PodDisruptionBudget } from 'kubernetes-models/policy/v1'
import { build } from '../helper.js'

const dir = join(import.meta.dirname, '..', '..', 'deploy', 'kubernetes')
const models: Record<string, new (data: never) => { validate(): void }> = {
  'apps/v1/Deployment': Deployment,
  'apps/v1/StatefulSet': StatefulSet,
  'v1/Service': Service,
  'v1/Secret': Secret,
  'autoscaling/v2/HorizontalPodAutoscaler': HorizontalPodAutoscaler,
  'policy/v1/PodDisruptionBudget': PodDisruptionBudget
}
type Obj = {
  apiVersion: string
  kind: string
  metadata: { name: string }
  spec?: any
  stringData?: Record<string, string>
}
const objects: Obj[] = readdirSync(dir)
  .filter(f => f.endsWith('.yaml'))
  .flatMap(f =>
    parseAllDocuments(readFileSync(join(dir, f), 'utf8')).map(d => {
      if (d.errors.length > 0) throw new Error(`${f}: ${d.errors[0]!.message}`)
      return d.toJS() as Obj
    })
  )
const find = (kind: string, name: string) => objects.find(o => o.kind === kind && o.metadata.name === name)

t.test('every object is valid against its schema', async t => {
  t.ok(objects.length >= 7, `${objects.length} objects`)
  for (const o of objects) {
    const Model = models[`${o.apiVersion}/${o.kind}`]
    t.ok(Model !== undefined, `${o.apiVersion} ${o.kind} is a known kind`)
    if (Model !== undefined) t.doesNotThrow(() => new Model(o as never).validate(), `${o.kind} ${o.metadata.name}`)
  }
  // the validator does refuse a broken object
  const broken = structuredClone(find('Deployment', 'otia-api')) as Obj
  delete broken.spec.selector
  t.throws(() => new Deployment(broken as never).validate(), /selector/, 'a Deployment without a selector is refused')
})

t.test('the Deployment, Service, HPA, PDB and Secret agree with each other and the service', async t => {
  const dep = find('Deployment', 'otia-api') as Obj
  const pod = dep.spec.template
  const c = pod.spec.containers[0]
  const labels = pod.metadata.labels
  t.same(dep.spec.selector.matchLabels, labels, 'the selector matches the pod labels')
  t.same(find('Service', 'otia-api')?.spec.selector, labels, 'the Service selects the pods')
  t.same(find('PodDisruptionBudget', 'otia-api')?.spec.selector.matchLabels, labels, 'the PDB covers the pods')
  t.match(
    find('HorizontalPodAutoscaler', 'otia-api')?.spec,
    { scaleTargetRef: { kind: 'Deployment', name: 'otia-api' }, metrics: [{ resource: { name: 'cpu' } }] },
    'the HPA scales the Deployment on CPU'
  )
  t.equal(
    find('Service', 'otia-api')?.spec.ports[0].targetPort,
    c.ports[0].name,
    'the Service targets the container port'
  )
  const env = Object.fromEntries((c.env as Array<{ name: string; value?: string }>).map(e => [e.name, e.value]))
  t.equal(Number(env.PORT), c.ports[0].containerPort, 'PORT is the container port')
  t.match(env.REDIS_URL, /^redis:\/\/otia-redis:/, 'REDIS_URL names the Redis Service')
  t.ok(find('Service', 'otia-redis') !== undefined)
  const secret = find('Secret', 'otia-secrets') as Obj
  for (const e of c.env.filter((x: any) => x.valueFrom !== undefined)) {
    t.equal(e.valueFrom.secretKeyRef.name, 'otia-secrets')
    t.ok(e.valueFrom.secretKeyRef.key in (secret.stringData ?? {}), `${e.name} is in the Secret`)
  }
  for (const k of ['requests', 'limits']) {
    t.ok(c.resources[k].cpu !== undefined && c.resources[k].memory !== undefined, `${k} set`)
  }
  t.ok(
    c.startupProbe.periodSeconds * c.startupProbe.failureThreshold >= 120,
    'the start-up probe allows the model warm-up'
  )
  // the probe paths are the service's own
  const app = await build(t)
  for (const probe of ['startupProbe', 'readinessProbe', 'livenessProbe']) {
    const res = await app.inject({ method: 'GET', url: c[probe].httpGet.path })
    t.equal(res.statusCode, 200, `${probe} ${c[probe].httpGet.path} answers 200 once warmed`)
  }
})
