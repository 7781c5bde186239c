import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { IContainer, IPodSpec, KubeObject, Kustomization, YamlDocument } from './k8s-manifests';
import {
  allContainers,
  basesRoot,
  isKustomization,
  k8sRoot,
  kustomizationReferences,
  listServices,
  listYamlFiles,
  loadModelClasses,
  podSpecOf,
  productionOverlay,
  readYamlDocuments,
  referenceExists,
  repoRoot,
} from './k8s-manifests';

const documents = readYamlDocuments(k8sRoot);
const kustomizations = documents.filter((document) => isKustomization(document.object));
const objects = documents.filter((document) => !isKustomization(document.object));
const services = listServices();

const absolute = (file: string) => path.resolve(repoRoot, file);
const kustomizationOf = (document: YamlDocument) => document.object as unknown as Kustomization;
const referencesOf = (document: YamlDocument) =>
  kustomizationReferences(absolute(document.file), kustomizationOf(document));

// Files named under `resources` are objects kustomize emits; files under
// `patches` are partial objects merged into them.
const resourceFiles = new Set(
  kustomizations.flatMap((document) =>
    (kustomizationOf(document).resources ?? []).map((resource) =>
      path.resolve(path.dirname(absolute(document.file)), resource),
    ),
  ),
);
const resources = objects.filter((document) => resourceFiles.has(absolute(document.file)));
const workloads = resources.filter((document) => podSpecOf(document.object) !== undefined);

const describeDocument = (document: YamlDocument) =>
  `${document.file}#${document.index + 1} ${document.object.kind}/${document.object.metadata?.name ?? '?'}`;

/** Names that hold credentials: their values come from a Secret, never from the manifest. */
const secretLookingName = /PASSWORD|SECRET|KEY|TOKEN|CREDENTIAL|DATABASE_URL/i;
/** A URL with a password in it (scheme://user:password@host). */
const urlWithPassword = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^@\s]+@/i;

function resourcesUnder(dir: string): YamlDocument[] {
  return resources.filter((document) => absolute(document.file).startsWith(dir + path.sep));
}

function selectorMatches(
  selector: Record<string, string> | undefined,
  labels: Record<string, string> | undefined,
) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

describe('kustomizations', () => {
  it('exist for the production overlay and every service', () => {
    const files = kustomizations.map((document) => document.file).sort();
    expect(files).toEqual(
      expect.arrayContaining([
        'infra/k8s/overlays/production/kustomization.yaml',
        ...services.map((service) => `infra/k8s/base/${service}/kustomization.yaml`),
      ]),
    );
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

  it('leave no YAML file unused (every file is a kustomization or named by one)', () => {
    const named = new Set(kustomizations.flatMap(referencesOf));
    const kustomizationFiles = new Set(kustomizations.map((document) => absolute(document.file)));
    const unused = listYamlFiles(k8sRoot)
      .filter((file) => !named.has(file) && !kustomizationFiles.has(file))
      .map((file) => path.relative(repoRoot, file));
    expect(unused).toEqual([]);
  });

  it('put every service base into the production overlay', () => {
    const overlay = kustomizations.find(
      (document) => absolute(document.file) === path.join(productionOverlay, 'kustomization.yaml'),
    );
    expect(overlay).toBeDefined();
    const included = referencesOf(overlay!);
    for (const service of services) expect(included).toContain(path.join(basesRoot, service));
  });

  it('rewrite in the production overlay every image the bases name', () => {
    const overlay = kustomizations.find(
      (document) => absolute(document.file) === path.join(productionOverlay, 'kustomization.yaml'),
    );
    const rewritten = new Set((kustomizationOf(overlay!).images ?? []).map((image) => image.name));
    const images = workloads.flatMap((document) =>
      allContainers(podSpecOf(document.object)!).map(({ container }) =>
        (container.image ?? '').replace(/[:@][^/]*$/, ''),
      ),
    );
    expect(images.length).toBeGreaterThan(0);
    expect(images.filter((image) => !rewritten.has(image))).toEqual([]);
  });
});

describe('Kubernetes objects', () => {
  let models: Awaited<ReturnType<typeof loadModelClasses>>;
  beforeAll(async () => {
    models = await loadModelClasses();
  });

  it('are there to check', () => {
    expect(objects.length).toBeGreaterThan(0);
  });

  it.each(objects.map((document) => [describeDocument(document), document] as const))(
    '%s is valid for its apiVersion and kind',
    (_name, document) => {
      const { apiVersion, kind } = document.object;
      const Model = models.get(`${apiVersion}/${kind}`);
      if (!Model)
        throw new Error(
          `no kubernetes-models class for ${apiVersion}/${kind} (add its module to loadModelClasses)`,
        );
      expect(() => new Model(document.object).validate()).not.toThrow();
    },
  );

  it.each(resources.map((document) => [describeDocument(document), document] as const))(
    '%s carries the app.kubernetes.io name and part-of labels',
    (_name, document) => {
      const labels = document.object.metadata?.labels ?? {};
      expect(labels['app.kubernetes.io/name']).toEqual(expect.any(String));
      expect(labels['app.kubernetes.io/part-of']).toEqual(expect.any(String));
    },
  );

  it.each(workloads.map((document) => [describeDocument(document), document] as const))(
    '%s gives its pods the same labels',
    (_name, document) => {
      const labels = document.object.metadata?.labels ?? {};
      const template = (document.object.spec as { template?: { metadata?: KubeObject['metadata'] } })
        .template;
      expect(template?.metadata?.labels).toEqual(
        expect.objectContaining({
          'app.kubernetes.io/name': labels['app.kubernetes.io/name'],
          'app.kubernetes.io/part-of': labels['app.kubernetes.io/part-of'],
        }),
      );
    },
  );

  it('include no Secret (secrets are created in the cluster, never committed)', () => {
    expect(objects.filter((document) => document.object.kind === 'Secret').map(describeDocument)).toEqual([]);
  });

  it('keep no secret-looking key in a ConfigMap', () => {
    const problems = objects
      .filter((document) => document.object.kind === 'ConfigMap')
      .flatMap((document) =>
        Object.entries((document.object.data as Record<string, string> | undefined) ?? {})
          .filter(([key, value]) => secretLookingName.test(key) || urlWithPassword.test(String(value)))
          .map(([key]) => `${describeDocument(document)}: ${key}`),
      );
    expect(problems).toEqual([]);
  });
});

const containerCases = workloads.flatMap((document) => {
  const pod = podSpecOf(document.object)!;
  return allContainers(pod).map(
    ({ container, init }) =>
      [
        `${describeDocument(document)} ${init ? 'init container' : 'container'} ${container.name}`,
        { container, init, pod },
      ] as const,
  );
});

describe('containers', () => {
  it('are there to check', () => {
    expect(containerCases.length).toBeGreaterThan(0);
  });

  it.each(containerCases)('%s takes credentials only from Secrets', (_name, { container }) => {
    const problems = (container.env ?? []).flatMap((variable) => {
      if (variable.value !== undefined && urlWithPassword.test(variable.value))
        return [`${variable.name}: literal URL with a password`];
      if (!secretLookingName.test(variable.name)) return [];
      if (variable.value !== undefined) return [`${variable.name}: literal value`];
      if (!variable.valueFrom?.secretKeyRef) return [`${variable.name}: not from a secretKeyRef`];
      return [];
    });
    expect(problems).toEqual([]);
  });

  it.each(containerCases)(
    '%s runs as non-root on a read-only root file system',
    (_name, { container, pod }) => {
      const runAsNonRoot = container.securityContext?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot;
      expect(runAsNonRoot).toBe(true);
      expect(container.securityContext?.runAsUser ?? pod.securityContext?.runAsUser).not.toBe(0);
      expect(container.securityContext?.readOnlyRootFilesystem).toBe(true);
      expect(container.securityContext?.allowPrivilegeEscalation).toBe(false);
      expect(container.securityContext?.capabilities?.drop).toContain('ALL');
      // Node and its libraries write temporary files: /tmp is a writable emptyDir.
      const tmp = (container.volumeMounts ?? []).find((mount) => mount.mountPath === '/tmp');
      expect(tmp).toBeDefined();
      expect(pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir).toBeDefined();
    },
  );

  it.each(containerCases)('%s has resource requests and limits', (_name, { container }) => {
    expect(container.resources?.requests).toEqual(
      expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
    );
    expect(container.resources?.limits).toEqual(
      expect.objectContaining({ cpu: expect.anything(), memory: expect.anything() }),
    );
  });

  const appContainers = containerCases.filter(([, { init }]) => !init);

  it.each(appContainers)(
    '%s probes /livez for liveness and start-up, /readyz for readiness',
    (_name, { container }) => {
      const portNames = new Set((container.ports ?? []).flatMap((port) => [port.name, port.containerPort]));
      for (const [probe, pathName] of [
        [container.livenessProbe, '/livez'],
        [container.readinessProbe, '/readyz'],
        [container.startupProbe, '/livez'],
      ] as const) {
        expect(probe?.httpGet?.path).toBe(pathName);
        expect(portNames.has(probe?.httpGet?.port)).toBe(true);
      }
    },
  );
});

describe.each(services)('service %s', (service) => {
  const baseDir = path.join(basesRoot, service);
  const own = resourcesUnder(baseDir);
  const ofKind = (kind: string) => own.filter((document) => document.object.kind === kind);
  const deployments = ofKind('Deployment');
  const deployment = deployments[0]?.object;
  const pod = deployment ? podSpecOf(deployment) : undefined;
  const app = pod?.containers.find((container) => container.name === service);

  it('has exactly one Deployment, named after it, with at least two replicas', () => {
    expect(deployments.map((document) => document.object.metadata?.name)).toEqual([service]);
    expect((deployment!.spec as { replicas?: number }).replicas).toBeGreaterThanOrEqual(2);
    expect(
      objects.filter(
        (document) => document.object.kind === 'Deployment' && document.object.metadata?.name === service,
      ),
    ).toHaveLength(1);
  });

  it('labels everything in its base with its name', () => {
    const problems = own
      .filter((document) => document.object.metadata?.labels?.['app.kubernetes.io/name'] !== service)
      .map(describeDocument);
    expect(problems).toEqual([]);
  });

  it('runs its image placeholder, rewritten by the overlay', () => {
    expect(app).toBeDefined();
    expect(app!.image).toBe(`ghcr.io/OWNER/${service}:latest`);
  });

  it('migrates the database in an init container before the app starts', () => {
    const migrate = pod!.initContainers?.find((container) => container.name === 'migrate');
    expect(migrate).toBeDefined();
    expect(migrate!.image).toBe(app!.image);
    expect(migrate!.command).toEqual(['node', 'dist/db/migrate-command.js']);
    // It reads the same configuration as the app.
    expect(migrate!.env).toEqual(app!.env);
    expect(migrate!.envFrom).toEqual(app!.envFrom);
  });

  it('reads DATABASE_URL from a Secret', () => {
    expect(app!.env?.find((variable) => variable.name === 'DATABASE_URL')?.valueFrom?.secretKeyRef).toEqual(
      expect.objectContaining({ key: 'DATABASE_URL', name: expect.any(String) }),
    );
  });

  it('takes its settings from a ConfigMap of its base that agrees with the container port', () => {
    const configMapNames = (app!.envFrom ?? []).flatMap((source) =>
      source.configMapRef ? [source.configMapRef.name] : [],
    );
    expect(configMapNames).toHaveLength(1);
    const configMap = ofKind('ConfigMap').find(
      (document) => document.object.metadata?.name === configMapNames[0],
    );
    expect(configMap).toBeDefined();
    const data = configMap!.object.data as Record<string, string>;
    expect(data.NODE_ENV).toBe('production');
    expect(app!.ports?.map((port) => port.containerPort)).toEqual([Number(data.PORT)]);
  });

  it('is reached through a ClusterIP Service whose selector and target port match the pods', () => {
    const servicesOfBase = ofKind('Service');
    expect(servicesOfBase).toHaveLength(1);
    const spec = servicesOfBase[0]!.object.spec as {
      type?: string;
      selector?: Record<string, string>;
      ports: { targetPort?: string | number }[];
    };
    expect(spec.type ?? 'ClusterIP').toBe('ClusterIP');
    const podLabels = (deployment!.spec as { template: { metadata?: KubeObject['metadata'] } }).template
      .metadata?.labels;
    expect(selectorMatches(spec.selector, podLabels)).toBe(true);
    const ports = new Set((app!.ports ?? []).flatMap((port) => [port.name, port.containerPort]));
    for (const port of spec.ports) expect(ports.has(port.targetPort)).toBe(true);
  });

  it('keeps a replica up through voluntary disruptions (PodDisruptionBudget)', () => {
    const budgets = ofKind('PodDisruptionBudget');
    expect(budgets).toHaveLength(1);
    const spec = budgets[0]!.object.spec as {
      minAvailable?: number;
      selector?: { matchLabels?: Record<string, string> };
    };
    const podLabels = (deployment!.spec as { template: { metadata?: KubeObject['metadata'] } }).template
      .metadata?.labels;
    expect(selectorMatches(spec.selector?.matchLabels, podLabels)).toBe(true);
    expect(spec.minAvailable).toBeGreaterThanOrEqual(1);
    expect(spec.minAvailable).toBeLessThan((deployment!.spec as { replicas: number }).replicas);
  });
});

describe('infra/README.md', () => {
  const readme = readFileSync(path.join(repoRoot, 'infra', 'README.md'), 'utf8');
  const secretKeys = [
    ...new Set(
      workloads.flatMap((document) =>
        allContainers(podSpecOf(document.object) as IPodSpec).flatMap(
          ({ container }: { container: IContainer }) =>
            (container.env ?? []).flatMap((variable) => {
              const ref = variable.valueFrom?.secretKeyRef;
              return ref ? [`${ref.name} ${ref.key}`] : [];
            }),
        ),
      ),
    ),
  ];

  it.each(secretKeys)('documents the Secret key %s the manifests read', (secretKey) => {
    const [name, key] = secretKey.split(' ');
    expect(readme).toContain(name);
    expect(readme).toContain(key);
  });
});
