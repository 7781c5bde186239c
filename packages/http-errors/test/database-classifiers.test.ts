import { isForeignKeyViolation, isUniqueViolation } from '../src';
import { PrismaClientKnownRequestError } from './fixtures';

const adapterError = (kind: string, originalCode: string) =>
  new PrismaClientKnownRequestError('write failed', {
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind, originalCode } } },
  });

describe('database error classifiers', () => {
  it('recognises a unique violation by Prisma code, adapter kind or SQLSTATE', () => {
    expect(isUniqueViolation(new PrismaClientKnownRequestError('dup', { code: 'P2002' }))).toBe(true);
    expect(isUniqueViolation(adapterError('UniqueConstraintViolation', '23505'))).toBe(true);
    expect(
      isUniqueViolation(new PrismaClientKnownRequestError('raw', { code: 'P2010', meta: { code: '23505' } })),
    ).toBe(true);
  });

  it('recognises a foreign-key violation, including a restricted delete', () => {
    expect(isForeignKeyViolation(new PrismaClientKnownRequestError('fk', { code: 'P2003' }))).toBe(true);
    expect(isForeignKeyViolation(adapterError('RestrictViolation', '23001'))).toBe(true);
  });

  it('does not mistake one kind of failure for the other, or other errors for either', () => {
    const unique = new PrismaClientKnownRequestError('dup', { code: 'P2002' });
    expect(isForeignKeyViolation(unique)).toBe(false);
    expect(isUniqueViolation(new PrismaClientKnownRequestError('fk', { code: 'P2003' }))).toBe(false);
    expect(isUniqueViolation(new Error('P2002'))).toBe(false);
    expect(isUniqueViolation(undefined)).toBe(false);
  });
});
