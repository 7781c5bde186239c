import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import type { IPodSpec, KubeObject, Kustomization, YamlDocument } from './k8s-manifests';
import {
  fixturesRoot,
  isKustomization,
  k8sRoot,
  kustomizationReferences,
  listOverlays,
  listServices,
  listYamlFiles,
  loadModelClasses,
  namespacesRoot,
  readYamlDocuments,
  referenceExists,
  renderKustomization,
  repoRoot,
} from './k8s-manifests';
import { loadCrdValidators } from './crd-schemas';
import { overlayProblems, secretKeysRead } from './k8s-policy';

const documents = readYamlDocuments(k8sRoot);
const kustomizations = documents.filter((document) => isKustomization(document.object));
const services = listServices();
const overlays = listOverlays();
const rendered = overlays.map((overlay) => ({ ...overlay, objects: renderKustomization(overlay.dir) }));
const namespaceKustomizations = ['dev', 'production'].map((environment) =>
  path.join(namespacesRoot, environment),
);
/** production-plain runs in production's namespace: it is production on a cluster without the operators. */
const namespaceEnvironmentOf = (environment: string) => environment.replace(/-plain$/, '');

const absolute = (file: string) => path.resolve(repoRoot, file);
const referencesOf = (document: YamlDocument) =>
  kustomizationReferences(absolute(document.file), document.object as unknown as Kustomization);
const label = (overlay: { service: string; environment: string }) =>
  `${overlay.service}/${overlay.environment}`;
const describe_ = (object: KubeObject) => `${object.kind}/${object.metadata?.name ?? '?'}`;

describe('layout', () => {
  it('has a base and dev and production overlays for every service, and the namespaces', () => {
    const entries = (dir: string) => readdirSync(dir).sort();
    expect(entries(k8sRoot)).toEqual(['namespaces', ...services].sort());
    expect(entries(namespacesRoot)).toEqual(['dev', 'production']);
    for (const service of services) {
      expect(entries(path.join(k8sRoot, service))).toEqual(['base', 'overlays']);
      expect(entries(path.join(k8sRoot, service, 'overlays'))).toEqual([
        'dev',
        'production',
        'production-plain',
      ]);
    }
  });

  it.each(kustomizations.map((document) => [document.file, document] as const))(
    '%s names only files and folders that exist',
    (_file, document) => {
      const missing = referencesOf(document)
        .filter((reference) => !referenceExists(reference))
        .map((reference) => path.relative(repoRoot, reference));
      expect(missing).toEqual([]);
    },
  );

  it('leaves no YAML or env file unused (every file is a kustomization or named by one)', () => {
    const named = new Set(kustomizations.flatMap(referencesOf));
    const kustomizationFiles = new Set(kustomizations.map((document) => absolute(document.file)));
    const envFiles = services
      .flatMap((service) => [
        path.join(k8sRoot, service, 'base', 'config.env'),
        ...overlays.filter((o) => o.service === service).map((o) => path.join(o.dir, 'config.env')),
      ])
      .filter((file) => existsSync(file));
    const unused = [...listYamlFiles(k8sRoot), ...envFiles]
      .filter((file) => !named.has(file) && !kustomizationFiles.has(file))
      .map((file) => path.relative(repoRoot, file));
    expect(unused).toEqual([]);
  });

  it('keeps the bases on placeholder images that every overlay rewrites', () => {
    for (const overlay of rendered) {
      const images = overlay.objects.flatMap(
        (object) => JSON.stringify(object).match(/"image":"[^"]+"/g) ?? [],
      );
      expect(images.length).toBeGreaterThan(0);
      expect(images.filter((image) => image.includes('OWNER'))).toEqual([]);
    }
  });

  it.each(namespaceKustomizations)('%s renders one restricted Namespace', (dir) => {
    const objects = renderKustomization(dir);
    expect(objects.map((object) => object.kind)).toEqual(['Namespace']);
    expect(objects[0]!.metadata?.labels?.['pod-security.kubernetes.io/enforce']).toBe('restricted');
  });

  it('puts each environment in its own namespace, the one infra/k8s/namespaces creates', () => {
    for (const overlay of rendered) {
      const namespace = renderKustomization(
        path.join(namespacesRoot, namespaceEnvironmentOf(overlay.environment)),
      )[0]!.metadata?.name;
      expect(new Set(overlay.objects.map((object) => object.metadata?.namespace))).toEqual(
        new Set([namespace]),
      );
    }
  });
});

describe('schemas', () => {
  let models: Awaited<ReturnType<typeof loadModelClasses>>;
  const crds = loadCrdValidators();
  beforeAll(async () => {
    models = await loadModelClasses();
  });

  it('cover CloudNativePG Clusters and ServiceMonitors', () => {
    expect(crds.kinds()).toEqual(
      expect.arrayContaining(['postgresql.cnpg.io/v1/Cluster', 'monitoring.coreos.com/v1/ServiceMonitor']),
    );
  });

  const cases = rendered.flatMap((overlay) =>
    overlay.objects.map((object) => [`${label(overlay)} ${describe_(object)}`, object] as const),
  );
  /** kubernetes-models' complaint about an object, or none. */
  const modelProblems = (object: KubeObject): string[] | undefined => {
    const Model = models.get(`${object.apiVersion}/${object.kind}`);
    if (!Model) return undefined;
    try {
      new Model(object).validate();
      return [];
    } catch (error) {
      return [(error as Error).message];
    }
  };

  it.each(cases)('%s is valid for its apiVersion and kind', (_name, object) => {
    const problems = crds.problems(object) ?? modelProblems(object);
    if (problems === undefined)
      throw new Error(`no schema for ${object.apiVersion}/${object.kind} (kubernetes-models or test/crds)`);
    expect(problems).toEqual([]);
  });
});

describe.each(rendered.map((overlay) => [label(overlay), overlay] as const))(
  'overlay %s',
  (_name, overlay) => {
    it('renders that service only, and meets every rule of test/k8s-policy.ts', () => {
      expect(overlayProblems(overlay.objects, overlay)).toEqual([]);
    });
  },
);

describe.each(services)('%s on a cluster without CloudNativePG or the Prometheus Operator', (service) => {
  const plain = rendered.find(
    (overlay) => overlay.service === service && overlay.environment === 'production-plain',
  );
  const production = rendered.find(
    (overlay) => overlay.service === service && overlay.environment === 'production',
  )!;
  const objects = () => {
    if (!plain) throw new Error(`no overlay infra/k8s/${service}/overlays/production-plain`);
    return plain.objects;
  };
  const deployment = () => objects().find((object) => object.kind === 'Deployment')!;

  it('renders only kinds a bare Kubernetes API server knows (no CRD)', async () => {
    const models = await loadModelClasses();
    const unknown = objects()
      .filter((object) => !models.has(`${object.apiVersion}/${object.kind}`))
      .map(describe_);
    expect(unknown).toEqual([]);
    expect(objects().map((object) => object.apiVersion)).not.toContainEqual(
      expect.stringMatching(/cnpg\.io|monitoring\.coreos\.com/),
    );
  });

  it("is production's overlay less the Cluster and the ServiceMonitor", () => {
    const ids = (list: KubeObject[]) => list.map(describe_).sort();
    expect(ids(objects())).toEqual(
      ids(production.objects.filter((object) => !['Cluster', 'ServiceMonitor'].includes(object.kind))),
    );
    const configOf = (list: KubeObject[]) => list.find((object) => object.kind === 'ConfigMap')?.data;
    expect(configOf(objects())).toEqual(configOf(production.objects));
  });

  it(`reads DATABASE_URL from the Secret ${service}-secrets in the app and the migrate init container`, () => {
    const spec = (deployment().spec as { template: { spec: IPodSpec } }).template.spec;
    const containers = [...(spec.initContainers ?? []), ...spec.containers];
    expect(containers.map((container) => container.name).sort()).toEqual(['migrate', service].sort());
    for (const container of containers) {
      expect(container.env?.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom).toEqual({
        secretKeyRef: { name: `${service}-secrets`, key: 'DATABASE_URL' },
      });
    }
  });

  it('lets the pods reach PostgreSQL on any address, and Prometheus find /metrics by annotations', () => {
    const policy = objects().find((object) => object.kind === 'NetworkPolicy')!;
    const egress = (policy.spec as { egress: { to?: unknown[]; ports?: { port: number }[] }[] }).egress;
    const database = egress.find((rule) => rule.ports?.some((port) => Number(port.port) === 5432));
    expect(database).toEqual({ ports: [{ port: 5432, protocol: 'TCP' }] });
    const annotations = (deployment().spec as { template: { metadata?: { annotations?: object } } }).template
      .metadata?.annotations;
    expect(annotations).toMatchObject({ 'prometheus.io/scrape': 'true', 'prometheus.io/path': '/metrics' });
  });
});

describe('the broken fixture (test/fixtures/broken-overlay)', () => {
  const objects = renderKustomization(path.join(fixturesRoot, 'broken-overlay'));
  const problems = overlayProblems(objects, { service: 'project-service', environment: 'production' });

  it.each([
    'image ghcr.io/your-org/project-service:latest is not pinned',
    'DATABASE_URL is a literal URL with a password',
    'no NetworkPolicy named project-service',
    'needs 1 <= minReplicas <= maxReplicas',
    'sets replicas',
    'terminationGracePeriodSeconds 20 < preStop 5 + drain 5 + grace 10 + 5',
    'root file system is writable',
    'no ServiceMonitor named project-service',
    'expected one CloudNativePG Cluster in production',
  ])('fails the rules: %s', (expected) => {
    expect(problems).toContainEqual(expect.stringContaining(expected));
  });

  it('fails schema validation: a misspelt and a mistyped field of a Cluster', () => {
    const crds = loadCrdValidators();
    const cluster = readYamlDocuments(path.join(fixturesRoot, 'broken-crds'))[0]!.object;
    expect(crds.problems(cluster)).toEqual(
      expect.arrayContaining([
        expect.stringContaining('/spec/instances must be integer'),
        expect.stringMatching(/\/spec must NOT have additional properties \(storge\)/),
      ]),
    );
  });

  it('is never among the deployable overlays', () => {
    expect(overlays.filter((overlay) => overlay.dir.startsWith(fixturesRoot))).toEqual([]);
  });
});

describe('infra/README.md', () => {
  const readme = readFileSync(path.join(repoRoot, 'infra', 'README.md'), 'utf8');
  const secretKeys = [...new Set(rendered.flatMap((overlay) => secretKeysRead(overlay.objects)))].sort();

  it.each(secretKeys)('documents the Secret key %s the manifests read', (secretKey) => {
    const [name, key] = secretKey.split(' ');
    expect(readme).toContain(name);
    expect(readme).toContain(key);
  });

  it.each(overlays.map((overlay) => path.relative(repoRoot, overlay.dir)))('shows how to apply %s', (dir) => {
    expect(readme).toContain(dir);
  });
});
