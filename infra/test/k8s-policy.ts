// Our rules for what one service's overlay renders to, beyond schema validity.
// Each rule returns the problems it finds, so a test can show that a broken
// fixture fails (test/fixtures/) and that every real overlay passes.
import type { IContainer, IPodSpec, KubeObject } from './k8s-manifests';
import { allContainers, podSpecOf } from './k8s-manifests';

/** Names that hold credentials: their values come from a Secret, never from the manifest. */
export const secretLookingName = /PASSWORD|SECRET|KEY|TOKEN|CREDENTIAL|DATABASE_URL/i;
/** A URL with a password in it (scheme://user:password@host). */
export const urlWithPassword = /^[a-z][a-z0-9+.-]*:\/\/[^/\s:@]+:[^@\s]+@/i;
/** What kustomize's configMapGenerator appends: `-` and a 10-character hash. */
const generatedSuffix = /-[a-z0-9]{10}$/;
/** Namespaces allowed to reach the pods: the gateway (API) and monitoring (/metrics). */
export const ingressNamespaces = ['gateway', 'monitoring'];
/** SHUTDOWN_DRAIN_MS and SHUTDOWN_GRACE_MS when the ConfigMap does not set them (operations spec). */
export const shutdownDefaults = { drainMs: 5000, graceMs: 10000 };
/** Seconds left between the end of the grace period and SIGKILL: closing the database, exiting. */
export const shutdownMarginSeconds = 5;

export interface PolicyContext {
  service: string;
  environment: string;
}

interface DeploymentSpec {
  replicas?: number;
  selector?: { matchLabels?: Record<string, string> };
  template: { metadata?: KubeObject['metadata']; spec: IPodSpec };
}
interface HpaSpec {
  scaleTargetRef?: { apiVersion?: string; kind?: string; name?: string };
  minReplicas?: number;
  maxReplicas?: number;
  metrics?: { type: string; resource?: { name?: string } }[];
}
interface NetworkPolicyPeer {
  namespaceSelector?: { matchLabels?: Record<string, string> };
  podSelector?: { matchLabels?: Record<string, string> };
  ipBlock?: { cidr: string };
}
interface NetworkPolicySpec {
  podSelector?: { matchLabels?: Record<string, string> };
  policyTypes?: string[];
  ingress?: { from?: NetworkPolicyPeer[]; ports?: { port?: number | string }[] }[];
  egress?: { to?: NetworkPolicyPeer[]; ports?: { port?: number | string; protocol?: string }[] }[];
}

const specOf = <T>(object: KubeObject | undefined) => object?.spec as T | undefined;

function selects(selector: Record<string, string> | undefined, labels: Record<string, string> | undefined) {
  if (!selector || Object.keys(selector).length === 0) return false;
  return Object.entries(selector).every(([key, value]) => labels?.[key] === value);
}

/** An image reference pinned by digest, or by a tag other than `latest`. */
export function imageIsPinned(image: string | undefined): boolean {
  if (!image) return false;
  if (/@sha256:[0-9a-f]{64}$/.test(image)) return true;
  const tag = /:([\w][\w.-]{0,127})$/.exec(image.replace(/^[^/]*\//, ''))?.[1];
  return tag !== undefined && tag !== 'latest';
}

function containerProblems(pod: IPodSpec, container: IContainer, init: boolean): string[] {
  const where = `${init ? 'init container' : 'container'} ${container.name}`;
  const problems: string[] = [];
  if (!imageIsPinned(container.image))
    problems.push(`${where}: image ${container.image ?? '(none)'} is not pinned by tag or digest`);
  const security = container.securityContext;
  if ((security?.runAsNonRoot ?? pod.securityContext?.runAsNonRoot) !== true)
    problems.push(`${where}: runAsNonRoot is not true`);
  if ((security?.runAsUser ?? pod.securityContext?.runAsUser) === 0) problems.push(`${where}: runs as uid 0`);
  if (security?.readOnlyRootFilesystem !== true) problems.push(`${where}: root file system is writable`);
  if (security?.allowPrivilegeEscalation !== false) problems.push(`${where}: privilege escalation allowed`);
  if (!security?.capabilities?.drop?.includes('ALL')) problems.push(`${where}: capabilities not all dropped`);
  const seccomp = security?.seccompProfile?.type ?? pod.securityContext?.seccompProfile?.type;
  if (seccomp !== 'RuntimeDefault' && seccomp !== 'Localhost')
    problems.push(`${where}: no RuntimeDefault seccomp profile`);
  for (const kind of ['requests', 'limits'] as const) {
    const resources = container.resources?.[kind];
    if (resources?.cpu === undefined || resources?.memory === undefined)
      problems.push(`${where}: no cpu and memory ${kind}`);
  }
  // Node and its libraries write temporary files: /tmp is a writable emptyDir.
  const tmp = (container.volumeMounts ?? []).find((mount) => mount.mountPath === '/tmp');
  if (!pod.volumes?.find((volume) => volume.name === tmp?.name)?.emptyDir)
    problems.push(`${where}: /tmp is not an emptyDir`);
  for (const variable of container.env ?? []) {
    if (variable.value !== undefined && urlWithPassword.test(variable.value))
      problems.push(`${where}: ${variable.name} is a literal URL with a password`);
    else if (secretLookingName.test(variable.name) && !variable.valueFrom?.secretKeyRef)
      problems.push(`${where}: ${variable.name} does not come from a secretKeyRef`);
  }
  return problems;
}

function secretRef(container: IContainer | undefined, name: string) {
  return container?.env?.find((variable) => variable.name === name)?.valueFrom?.secretKeyRef;
}

/** Every problem our rules find in one service overlay's rendered objects. */
export function overlayProblems(objects: KubeObject[], { service, environment }: PolicyContext): string[] {
  const problems: string[] = [];
  // production-plain is production on a cluster without CloudNativePG and the Prometheus
  // Operator: the same rules, less the Cluster and the ServiceMonitor.
  const production = environment === 'production' || environment === 'production-plain';
  const operators = environment === 'production';
  const ofKind = (kind: string) => objects.filter((object) => object.kind === kind);
  const named = (kind: string) => ofKind(kind).find((object) => object.metadata?.name === service);

  // One service, one namespace, nothing secret.
  for (const object of objects) {
    const id = `${object.kind}/${object.metadata?.name ?? '?'}`;
    if (object.kind === 'Namespace')
      problems.push(`${id}: namespaces are applied apart (infra/k8s/namespaces)`);
    if (object.kind === 'Secret') problems.push(`${id}: Secrets are created in the cluster, never committed`);
    if (object.metadata?.labels?.['app.kubernetes.io/name'] !== service)
      problems.push(`${id}: not labelled app.kubernetes.io/name=${service}`);
    if (!object.metadata?.labels?.['app.kubernetes.io/part-of']) problems.push(`${id}: no part-of label`);
  }
  const namespaces = new Set(objects.map((object) => object.metadata?.namespace));
  if (namespaces.size !== 1 || namespaces.has(undefined))
    problems.push(`objects are not all in one namespace: ${[...namespaces].join(', ')}`);

  for (const configMap of ofKind('ConfigMap')) {
    for (const [key, value] of Object.entries((configMap.data as Record<string, string>) ?? {})) {
      if (secretLookingName.test(key) || urlWithPassword.test(value))
        problems.push(`ConfigMap/${configMap.metadata?.name}: ${key} looks secret`);
    }
  }

  // The Deployment and its pods.
  const deployments = ofKind('Deployment');
  const deployment = named('Deployment');
  if (deployments.length !== 1 || !deployment) {
    problems.push(`expected exactly one Deployment, named ${service}`);
    return problems;
  }
  const spec = specOf<DeploymentSpec>(deployment)!;
  const pod = podSpecOf(deployment)!;
  const podLabels = spec.template.metadata?.labels;
  const app = pod.containers.find((container) => container.name === service);
  if (!app) {
    problems.push(`Deployment/${service}: no container named ${service}`);
    return problems;
  }
  for (const { container, init } of allContainers(pod))
    problems.push(...containerProblems(pod, container, init));

  const configMapNames = (app.envFrom ?? []).flatMap((source) =>
    source.configMapRef ? [source.configMapRef.name] : [],
  );
  const configMap = ofKind('ConfigMap').find((object) => object.metadata?.name === configMapNames[0]);
  const config = (configMap?.data as Record<string, string> | undefined) ?? {};
  if (configMapNames.length !== 1 || !configMap)
    problems.push(`container ${service}: no ConfigMap of its own`);
  else if (!generatedSuffix.test(configMap.metadata?.name ?? ''))
    problems.push(`ConfigMap/${configMap.metadata?.name}: not generated (no content hash in its name)`);
  if (config.NODE_ENV !== 'production') problems.push(`ConfigMap: NODE_ENV is not production`);
  const ports = app.ports ?? [];
  if (ports.length !== 1 || ports[0]?.containerPort !== Number(config.PORT) || !ports[0]?.name)
    problems.push(`container ${service}: one named port, the ConfigMap's PORT (${config.PORT})`);

  for (const [probe, probePath, name] of [
    [app.startupProbe, '/livez', 'startup'],
    [app.livenessProbe, '/livez', 'liveness'],
    [app.readinessProbe, '/readyz', 'readiness'],
  ] as const) {
    if (probe?.httpGet?.path !== probePath || probe.httpGet.port !== ports[0]?.name)
      problems.push(`container ${service}: ${name} probe is not GET ${probePath} on its port`);
  }

  const migrate = pod.initContainers?.find((container) => container.name === 'migrate');
  if (
    !migrate ||
    migrate.image !== app.image ||
    migrate.command?.join(' ') !== 'node dist/db/migrate-command.js' ||
    JSON.stringify(migrate.env) !== JSON.stringify(app.env) ||
    JSON.stringify(migrate.envFrom) !== JSON.stringify(app.envFrom)
  )
    problems.push(`Deployment/${service}: no init container "migrate" running the app's image and settings`);

  // Shutdown (infra/README.md): preStop pause, then the drain and the grace
  // period, all inside terminationGracePeriodSeconds.
  const preStop = app.lifecycle?.preStop?.exec?.command;
  const pause = preStop?.[0] === 'sleep' ? Number(preStop[1]) : NaN;
  const drain = Number(config.SHUTDOWN_DRAIN_MS ?? shutdownDefaults.drainMs) / 1000;
  const grace = Number(config.SHUTDOWN_GRACE_MS ?? shutdownDefaults.graceMs) / 1000;
  const termination = pod.terminationGracePeriodSeconds ?? 30;
  if (!(pause > 0)) problems.push(`container ${service}: no preStop sleep`);
  else if (termination < pause + drain + grace + shutdownMarginSeconds)
    problems.push(
      `Deployment/${service}: terminationGracePeriodSeconds ${termination} < preStop ${pause} + drain ${drain} + grace ${grace} + ${shutdownMarginSeconds}`,
    );
  const readiness = app.readinessProbe;
  const notReadyAfter = (readiness?.periodSeconds ?? 10) * (readiness?.failureThreshold ?? 3);
  if (pause > 0 && notReadyAfter > pause + drain)
    problems.push(
      `container ${service}: readiness fails only after ${notReadyAfter} s, past the preStop pause and drain (${pause + drain} s)`,
    );

  // Service.
  const serviceObject = named('Service');
  const serviceSpec = specOf<{
    type?: string;
    selector?: Record<string, string>;
    ports?: { name?: string; targetPort?: string | number }[];
  }>(serviceObject);
  if (!serviceSpec) problems.push(`no Service named ${service}`);
  else {
    if ((serviceSpec.type ?? 'ClusterIP') !== 'ClusterIP') problems.push(`Service/${service}: not ClusterIP`);
    if (!selects(serviceSpec.selector, podLabels)) problems.push(`Service/${service}: selects no pod`);
    for (const port of serviceSpec.ports ?? [])
      if (!ports.some((own) => own.name === port.targetPort || own.containerPort === port.targetPort))
        problems.push(`Service/${service}: target port ${port.targetPort} is not the container's`);
  }

  // Replicas: the HPA owns them; the budget must let a node drain go through.
  const hpa = specOf<HpaSpec>(named('HorizontalPodAutoscaler'));
  if (!hpa) problems.push(`no HorizontalPodAutoscaler named ${service}`);
  else {
    const target = hpa.scaleTargetRef;
    if (target?.kind !== 'Deployment' || target.name !== service)
      problems.push(`HorizontalPodAutoscaler/${service}: does not scale Deployment/${service}`);
    if (!(
      hpa.minReplicas !== undefined &&
      hpa.minReplicas >= 1 &&
      hpa.maxReplicas !== undefined &&
      hpa.minReplicas <= hpa.maxReplicas
    ))
      problems.push(`HorizontalPodAutoscaler/${service}: needs 1 <= minReplicas <= maxReplicas`);
    if (!hpa.metrics?.some((metric) => metric.type === 'Resource' && metric.resource?.name === 'cpu'))
      problems.push(`HorizontalPodAutoscaler/${service}: does not scale on CPU`);
    if (spec.replicas !== undefined)
      problems.push(`Deployment/${service}: sets replicas, which every apply would reset under the HPA`);
    if (production && (hpa.minReplicas ?? 0) < 2)
      problems.push(`HorizontalPodAutoscaler/${service}: fewer than 2 replicas in production`);
  }
  const budget = specOf<{
    minAvailable?: number | string;
    maxUnavailable?: number | string;
    selector?: { matchLabels?: Record<string, string> };
  }>(named('PodDisruptionBudget'));
  if (!budget) {
    if (production) problems.push(`no PodDisruptionBudget named ${service}`);
  } else {
    if (!selects(budget.selector?.matchLabels, podLabels))
      problems.push(`PodDisruptionBudget/${service}: selects no pod`);
    if (typeof budget.minAvailable === 'number' && !(budget.minAvailable < (hpa?.minReplicas ?? 1)))
      problems.push(
        `PodDisruptionBudget/${service}: minAvailable ${budget.minAvailable} leaves no pod to evict at the HPA's ${hpa?.minReplicas ?? 1} replicas`,
      );
    if (budget.maxUnavailable === 0)
      problems.push(`PodDisruptionBudget/${service}: maxUnavailable 0 blocks every drain`);
  }

  // NetworkPolicy: ingress from the gateway and monitoring only; egress to
  // DNS, the database and (attachments in S3) the object store only.
  const policy = specOf<NetworkPolicySpec>(named('NetworkPolicy'));
  if (!policy) problems.push(`no NetworkPolicy named ${service}`);
  else {
    if (!selects(policy.podSelector?.matchLabels, podLabels))
      problems.push(`NetworkPolicy/${service}: selects no pod`);
    for (const type of ['Ingress', 'Egress'])
      if (!policy.policyTypes?.includes(type))
        problems.push(`NetworkPolicy/${service}: does not restrict ${type}`);
    for (const rule of policy.ingress ?? []) {
      const peers = rule.from ?? [];
      const allowed = peers.every(
        (peer) =>
          !peer.podSelector &&
          !peer.ipBlock &&
          ingressNamespaces.includes(
            peer.namespaceSelector?.matchLabels?.['kubernetes.io/metadata.name'] ?? '',
          ),
      );
      if (peers.length === 0 || !allowed)
        problems.push(
          `NetworkPolicy/${service}: ingress from beyond the ${ingressNamespaces.join(' and ')} namespaces`,
        );
    }
    const egressPorts = (policy.egress ?? []).map((rule) =>
      (rule.ports ?? []).map((port) => Number(port.port)),
    );
    if (egressPorts.some((rulePorts) => rulePorts.length === 0))
      problems.push(`NetworkPolicy/${service}: an egress rule allows every port`);
    const allowedPorts = new Set(egressPorts.flat());
    for (const port of [53, 5432])
      if (!allowedPorts.has(port)) problems.push(`NetworkPolicy/${service}: no egress to port ${port}`);
    if (config.ATTACHMENT_STORAGE === 's3' && !allowedPorts.has(443))
      problems.push(`NetworkPolicy/${service}: no egress to the object store (443)`);
  }

  // Metrics: a ServiceMonitor scrapes /metrics on the Service's port.
  const monitor = specOf<{
    selector?: { matchLabels?: Record<string, string> };
    endpoints?: { port?: string; path?: string }[];
  }>(named('ServiceMonitor'));
  if (!monitor) {
    if (operators) problems.push(`no ServiceMonitor named ${service}`);
  } else {
    if (!selects(monitor.selector?.matchLabels, serviceObject?.metadata?.labels))
      problems.push(`ServiceMonitor/${service}: selects no Service of ${service}`);
    const portNames = new Set((serviceSpec?.ports ?? []).map((port) => port.name));
    if (!monitor.endpoints?.some((endpoint) => endpoint.path === '/metrics' && portNames.has(endpoint.port)))
      problems.push(`ServiceMonitor/${service}: does not scrape /metrics on a Service port`);
  }

  // The database: production runs a CloudNativePG Cluster and reads the URI
  // from the Secret it generates.
  const clusters = objects.filter(
    (object) => object.kind === 'Cluster' && object.apiVersion.startsWith('postgresql.cnpg.io/'),
  );
  if (operators && clusters.length !== 1) problems.push(`expected one CloudNativePG Cluster in production`);
  if (production && !operators) {
    for (const container of [app, migrate]) {
      const ref = secretRef(container, 'DATABASE_URL');
      if (ref?.name !== `${service}-secrets` || ref.key !== 'DATABASE_URL')
        problems.push(
          `container ${container?.name}: DATABASE_URL is not key DATABASE_URL of ${service}-secrets`,
        );
    }
  }
  for (const cluster of clusters) {
    const name = cluster.metadata?.name;
    for (const container of [app, migrate]) {
      const ref = secretRef(container, 'DATABASE_URL');
      if (ref?.name !== `${name}-app` || ref.key !== 'uri')
        problems.push(`container ${container?.name}: DATABASE_URL is not the uri of Secret ${name}-app`);
    }
    const databaseRule = (policy?.egress ?? []).find((rule) =>
      (rule.ports ?? []).some((port) => Number(port.port) === 5432),
    );
    if (!databaseRule?.to?.some((peer) => peer.podSelector?.matchLabels?.['cnpg.io/cluster'] === name))
      problems.push(`NetworkPolicy/${service}: database egress is not limited to Cluster ${name}`);
  }

  // Attachments (code-hosting-api): in production, S3 shared by the replicas.
  if (service === 'code-hosting-api' && production) {
    if (config.ATTACHMENT_STORAGE !== 's3')
      problems.push(`ConfigMap: ATTACHMENT_STORAGE is not s3 in production`);
    for (const key of ['S3_BUCKET', 'S3_REGION', 'S3_ENDPOINT'])
      if (!config[key]) problems.push(`ConfigMap: no ${key}`);
    for (const key of ['S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY'])
      if (!secretRef(app, key)) problems.push(`container ${service}: ${key} not from a Secret`);
  }
  return problems;
}

/** Every Secret key the containers read: "name key" pairs. */
export function secretKeysRead(objects: KubeObject[]): string[] {
  return objects.flatMap((object) => {
    const pod = podSpecOf(object);
    if (!pod) return [];
    return allContainers(pod).flatMap(({ container }) =>
      (container.env ?? []).flatMap((variable) => {
        const ref = variable.valueFrom?.secretKeyRef;
        return ref ? [`${ref.name} ${ref.key}`] : [];
      }),
    );
  });
}
