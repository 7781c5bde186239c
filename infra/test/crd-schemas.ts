// Validation of custom resources (CloudNativePG's Cluster, Prometheus
// Operator's ServiceMonitor) against the OpenAPI schemas their projects
// publish in their CustomResourceDefinitions, vendored in test/crds/
// (test/crds/README.md says from where and which version).
//
// The API server prunes or, with kubectl's default strict field validation,
// refuses fields a structural schema does not declare; so does this: every
// object schema with `properties` and no `x-kubernetes-preserve-unknown-fields`
// gets `additionalProperties: false`, and a misspelt field fails here too.
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import { parseAllDocuments } from 'yaml';
import type { KubeObject } from './k8s-manifests';

export const crdsDir = path.join(__dirname, 'crds');

type Schema = Record<string, unknown>;

interface CustomResourceDefinition {
  kind: string;
  spec: {
    group: string;
    names: { kind: string };
    versions: { name: string; served: boolean; schema?: { openAPIV3Schema: Schema } }[];
  };
}

/** A copy of the schema that refuses undeclared fields, as the API server does. */
function closed(schema: unknown): unknown {
  if (Array.isArray(schema)) return schema.map(closed);
  if (schema === null || typeof schema !== 'object') return schema;
  const copy: Schema = {};
  for (const [key, value] of Object.entries(schema as Schema)) {
    // `properties` maps field names to schemas: recurse into the schemas only.
    copy[key] =
      key === 'properties'
        ? Object.fromEntries(Object.entries(value as Schema).map(([name, field]) => [name, closed(field)]))
        : closed(value);
  }
  if (
    copy.properties !== undefined &&
    copy.additionalProperties === undefined &&
    copy['x-kubernetes-preserve-unknown-fields'] !== true
  ) {
    copy.additionalProperties = false;
  }
  return copy;
}

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map((error) => {
    const extra =
      error.keyword === 'additionalProperties'
        ? ` (${String((error.params as { additionalProperty: string }).additionalProperty)})`
        : '';
    return `${error.instancePath || '/'} ${error.message ?? error.keyword}${extra}`;
  });
}

export interface CrdValidators {
  /** "group/version/Kind" for every served version of every vendored CRD. */
  kinds(): string[];
  /** undefined when no vendored CRD covers the object's apiVersion and kind. */
  problems(object: KubeObject): string[] | undefined;
}

export function loadCrdValidators(dir = crdsDir): CrdValidators {
  // Kubernetes' own keywords (x-kubernetes-*) are not JSON Schema: strict off;
  // formats such as int64 or date-time are the API server's, not checked here.
  const ajv = new Ajv({ strict: false, allErrors: true, validateFormats: false });
  const validators = new Map<string, ValidateFunction>();
  for (const file of readdirSync(dir).filter((name) => /\.ya?ml$/.test(name))) {
    for (const document of parseAllDocuments(readFileSync(path.join(dir, file), 'utf8'))) {
      const crd = document.toJS() as CustomResourceDefinition | null;
      if (crd?.kind !== 'CustomResourceDefinition') continue;
      for (const version of crd.spec.versions) {
        if (!version.served || !version.schema) continue;
        validators.set(
          `${crd.spec.group}/${version.name}/${crd.spec.names.kind}`,
          ajv.compile(closed(version.schema.openAPIV3Schema) as Schema),
        );
      }
    }
  }
  return {
    kinds: () => [...validators.keys()].sort(),
    problems(object) {
      const validate = validators.get(`${object.apiVersion}/${object.kind}`);
      if (!validate) return undefined;
      return validate(object) ? [] : describeErrors(validate.errors);
    },
  };
}
