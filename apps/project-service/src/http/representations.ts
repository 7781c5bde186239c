import type { z } from 'zod';
import {
  CreateProjectRequest,
  ErrorBody,
  ProjectBase,
  ProjectFull,
  ProjectList,
  ProjectSettings,
  UpdateProjectBaseRequest,
  UpdateProjectSettingsRequest,
} from './schemas';
import { shapeOf, type ObjectShape } from './representation-shape';

/** Object types inside representations, named as a Go client names its structs. */
const NESTED_TYPES = {
  writers: 'UserInfo',
  auditors: 'UserInfo',
  meeting_coordinators: 'UserInfo',
  projects: 'ProjectFull',
};

/**
 * Every request and response representation by name (the XML root element and the gob type
 * name) and the zod schema that declares it.
 */
export const representationSchemas = {
  CreateProjectRequest,
  UpdateProjectBaseRequest,
  UpdateProjectSettingsRequest,
  ProjectBase,
  ProjectSettings,
  ProjectFull,
  Projects: ProjectList,
  Error: ErrorBody,
} satisfies Record<string, z.ZodType>;

export type RepresentationName = keyof typeof representationSchemas;

/** A representation's value, as its schema parses it. */
export type RepresentationOf<Name extends RepresentationName> = z.infer<(typeof representationSchemas)[Name]>;

/** The shape of every representation, what the XML and gob codecs read and write. */
export const representations = Object.fromEntries(
  Object.entries(representationSchemas).map(([name, schema]) => [name, shapeOf(schema, name, NESTED_TYPES)]),
) as Record<RepresentationName, ObjectShape>;
