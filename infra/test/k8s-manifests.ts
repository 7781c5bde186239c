// Reads the Kubernetes manifests under infra/k8s: every YAML document of every
// file, the kustomizations that tie them together, the overlays as kustomize
// renders them, and the kubernetes-models class that validates each object.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import type { IContainer, IPodSpec } from 'kubernetes-models/v1' with { 'resolution-mode': 'import' };

export const repoRoot = path.resolve(__dirname, '..', '..');
export const k8sRoot = path.join(repoRoot, 'infra', 'k8s');
/** Namespaces are applied once, apart from the services (infra/k8s/namespaces/<environment>). */
export const namespacesRoot = path.join(k8sRoot, 'namespaces');
export const fixturesRoot = path.join(repoRoot, 'infra', 'test', 'fixtures');

/** infra/k8s/<service>/base of one service. */
export const baseOf = (service: string) => path.join(k8sRoot, service, 'base');

export type { IContainer, IPodSpec };

/** What every object has; the rest is read through the kind's own shape. */
export interface KubeObject {
  apiVersion: string;
  kind: string;
  metadata?: { name?: string; namespace?: string; labels?: Record<string, string> };
  [field: string]: unknown;
}

export interface YamlDocument {
  /** Path relative to the repository root. */
  file: string;
  index: number;
  object: KubeObject;
}

export interface Kustomization {
  apiVersion: string;
  kind: 'Kustomization';
  namespace?: string;
  resources?: string[];
  components?: string[];
  patches?: { path?: string; patch?: string; target?: unknown }[];
  patchesStrategicMerge?: string[];
  configMapGenerator?: { name?: string; behavior?: string; files?: string[]; envs?: string[] }[];
  secretGenerator?: unknown[];
  images?: { name: string; newName?: string; newTag?: string; digest?: string }[];
}

export function listYamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true })
    .flatMap((entry) => {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) return listYamlFiles(full);
      return /\.ya?ml$/.test(entry.name) ? [full] : [];
    })
    .sort();
}

/** Every document of every YAML file under `dir`; a syntax error throws, naming the file. */
export function readYamlDocuments(dir: string): YamlDocument[] {
  return listYamlFiles(dir).flatMap((file) => {
    const relative = path.relative(repoRoot, file);
    return parseAllDocuments(readFileSync(file, 'utf8')).flatMap((document, index) => {
      if (document.errors.length > 0) {
        throw new Error(
          `${relative} (document ${index + 1}): ${document.errors.map((e) => e.message).join('; ')}`,
        );
      }
      const object: unknown = document.toJS();
      if (object === null || object === undefined) return [];
      return [{ file: relative, index, object: object as KubeObject }];
    });
  });
}

export function isKustomization(object: KubeObject): object is KubeObject & Kustomization {
  return object.kind === 'Kustomization' && object.apiVersion.startsWith('kustomize.config.k8s.io/');
}

/** The files and folders a kustomization names, resolved against its folder. */
export function kustomizationReferences(kustomizationFile: string, kustomization: Kustomization): string[] {
  const dir = path.dirname(kustomizationFile);
  const paths = [
    ...(kustomization.resources ?? []),
    ...(kustomization.components ?? []),
    ...(kustomization.patchesStrategicMerge ?? []),
    ...(kustomization.patches ?? []).flatMap((patch) => (patch.path ? [patch.path] : [])),
    ...(kustomization.configMapGenerator ?? []).flatMap((generator) => [
      ...(generator.files ?? []).map((file) => file.replace(/^[^=]*=/, '')),
      ...(generator.envs ?? []),
    ]),
  ];
  return paths.map((reference) => path.resolve(dir, reference));
}

/** A resource reference exists when it is a file, or a folder holding a kustomization. */
export function referenceExists(reference: string): boolean {
  if (!existsSync(reference)) return false;
  if (!statSync(reference).isDirectory()) return true;
  return ['kustomization.yaml', 'kustomization.yml', 'Kustomization'].some((name) =>
    existsSync(path.join(reference, name)),
  );
}

export interface Overlay {
  service: string;
  environment: string;
  /** Absolute path of the overlay's folder. */
  dir: string;
}

/** Every infra/k8s/<service>/overlays/<environment> folder. */
export function listOverlays(): Overlay[] {
  return readdirSync(k8sRoot, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(k8sRoot, entry.name, 'overlays')))
    .flatMap((entry) => {
      const overlaysDir = path.join(k8sRoot, entry.name, 'overlays');
      return readdirSync(overlaysDir, { withFileTypes: true })
        .filter((overlay) => overlay.isDirectory())
        .map((overlay) => ({
          service: entry.name,
          environment: overlay.name,
          dir: path.join(overlaysDir, overlay.name),
        }));
    })
    .sort((a, b) => a.dir.localeCompare(b.dir));
}

/**
 * The objects `kubectl kustomize <dir>` prints: what `kubectl apply -k` sends.
 * kubectl comes with the machine image (and GitHub's runners); without it this
 * throws rather than skipping.
 */
export function renderKustomization(dir: string): KubeObject[] {
  let output: string;
  try {
    output = execFileSync('kubectl', ['kustomize', dir], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    const failure = error as { code?: string; stderr?: string; message: string };
    if (failure.code === 'ENOENT')
      throw new Error('kubectl is not installed: the infra tests render overlays with `kubectl kustomize`');
    throw new Error(
      `kubectl kustomize ${path.relative(repoRoot, dir)} failed: ${failure.stderr ?? failure.message}`,
    );
  }
  return parseAllDocuments(output).flatMap((document) => {
    const object: unknown = document.toJS();
    return object ? [object as KubeObject] : [];
  });
}

/** The services this repository deploys: the folders of apps/ that hold a package. */
export function listServices(): string[] {
  const appsDir = path.join(repoRoot, 'apps');
  return readdirSync(appsDir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && existsSync(path.join(appsDir, entry.name, 'package.json')))
    .map((entry) => entry.name)
    .sort();
}

type ModelClass = { apiVersion: string; kind: string; new (data: unknown): { validate(): void } };

function isModelClass(value: unknown): value is ModelClass {
  return (
    typeof value === 'function' &&
    typeof (value as Partial<ModelClass>).apiVersion === 'string' &&
    typeof (value as Partial<ModelClass>).kind === 'string'
  );
}

/**
 * kubernetes-models' classes by "apiVersion/kind", for the API groups a
 * deployment of these services may use. The package is ESM-only, hence import().
 */
export async function loadModelClasses(): Promise<Map<string, ModelClass>> {
  // One at a time: Jest's ESM loader fails on concurrent imports sharing a module.
  const modules: Record<string, unknown>[] = [];
  modules.push(await import('kubernetes-models/v1'));
  modules.push(await import('kubernetes-models/apps/v1'));
  modules.push(await import('kubernetes-models/batch/v1'));
  modules.push(await import('kubernetes-models/policy/v1'));
  modules.push(await import('kubernetes-models/autoscaling/v2'));
  modules.push(await import('kubernetes-models/networking.k8s.io/v1'));
  modules.push(await import('kubernetes-models/rbac.authorization.k8s.io/v1'));
  const classes = new Map<string, ModelClass>();
  for (const module of modules) {
    for (const value of Object.values(module)) {
      if (isModelClass(value)) classes.set(`${value.apiVersion}/${value.kind}`, value);
    }
  }
  return classes;
}

export function podSpecOf(object: KubeObject): IPodSpec | undefined {
  const spec = object.spec as {
    template?: { spec?: IPodSpec };
    jobTemplate?: { spec?: { template?: { spec?: IPodSpec } } };
  };
  return spec?.template?.spec ?? spec?.jobTemplate?.spec?.template?.spec;
}

export function allContainers(pod: IPodSpec): { container: IContainer; init: boolean }[] {
  return [
    ...(pod.initContainers ?? []).map((container) => ({ container, init: true })),
    ...pod.containers.map((container) => ({ container, init: false })),
  ];
}
