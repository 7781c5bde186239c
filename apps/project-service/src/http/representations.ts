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

/** Every request and response representation by name: the XML root element and the gob type name. */
export const representations = {
  CreateProjectRequest: shapeOf(CreateProjectRequest, 'CreateProjectRequest', NESTED_TYPES),
  UpdateProjectBaseRequest: shapeOf(UpdateProjectBaseRequest, 'UpdateProjectBaseRequest', NESTED_TYPES),
  UpdateProjectSettingsRequest: shapeOf(
    UpdateProjectSettingsRequest,
    'UpdateProjectSettingsRequest',
    NESTED_TYPES,
  ),
  ProjectBase: shapeOf(ProjectBase, 'ProjectBase', NESTED_TYPES),
  ProjectSettings: shapeOf(ProjectSettings, 'ProjectSettings', NESTED_TYPES),
  ProjectFull: shapeOf(ProjectFull, 'ProjectFull', NESTED_TYPES),
  Projects: shapeOf(ProjectList, 'Projects', NESTED_TYPES),
  Error: shapeOf(ErrorBody, 'Error', NESTED_TYPES),
} satisfies Record<string, ObjectShape>;

export type RepresentationName = keyof typeof representations;
