import type { AccountRecord, AccountType, UserCredentials, Visibility } from './records';
import type { WriteOutcome } from './write-outcome';

export interface NewAccount {
  name: string;
  type: AccountType;
  email?: string;
  fullName?: string;
  description?: string;
  website?: string;
  location?: string;
  visibility?: Visibility;
  passwordHash?: string;
  isAdmin?: boolean;
  allowCreateOrganization?: boolean;
  repoAdminChangeTeamAccess?: boolean;
}

export type AccountChanges = Partial<
  Pick<
    AccountRecord,
    | 'fullName'
    | 'email'
    | 'description'
    | 'website'
    | 'location'
    | 'visibility'
    | 'repoAdminChangeTeamAccess'
    | 'isAdmin'
    | 'allowCreateOrganization'
    | 'isActive'
  >
>;

/**
 * The accounts a caller may see, as a condition a query applies: accounts of `visibilities`, plus
 * accounts of `memberVisibilities` that are the user `memberId` or an organization they belong to.
 * src/domain/access.ts states who gets which scope.
 */
export interface AccountVisibilityScope {
  visibilities: Visibility[];
  memberId?: number;
  memberVisibilities: Visibility[];
}

/** Users and organizations alike: both are accounts sharing one namespace. */
export interface AccountStore {
  findAccountByName(name: string): Promise<AccountRecord | undefined>;
  findAccountById(id: number): Promise<AccountRecord | undefined>;
  findUserCredentials(name: string): Promise<UserCredentials | undefined>;
  anyAdminExists(): Promise<boolean>;
  createUser(account: NewAccount): Promise<WriteOutcome<AccountRecord>>;
  recordLogin(accountId: number): Promise<void>;
  updateAccount(id: number, changes: AccountChanges): Promise<AccountRecord>;
  setPasswordHash(id: number, passwordHash: string): Promise<void>;
}
