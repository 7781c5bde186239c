import { isForeignKeyConstraintViolation, isUniqueConstraintViolation } from '../src';
import { PrismaClientKnownRequestError } from './fixtures';

const adapterError = (kind: string, originalCode: string) =>
  new PrismaClientKnownRequestError('write failed', {
    code: 'P2010',
    meta: { driverAdapterError: { name: 'DriverAdapterError', cause: { kind, originalCode } } },
  });

describe('database error classifiers', () => {
  it('recognises a unique violation by Prisma code, adapter kind or SQLSTATE', () => {
    expect(isUniqueConstraintViolation(new PrismaClientKnownRequestError('dup', { code: 'P2002' }))).toBe(
      true,
    );
    expect(isUniqueConstraintViolation(adapterError('UniqueConstraintViolation', '23505'))).toBe(true);
    expect(
      isUniqueConstraintViolation(
        new PrismaClientKnownRequestError('raw', { code: 'P2010', meta: { code: '23505' } }),
      ),
    ).toBe(true);
  });

  it('recognises a foreign-key violation, including a restricted delete', () => {
    expect(isForeignKeyConstraintViolation(new PrismaClientKnownRequestError('fk', { code: 'P2003' }))).toBe(
      true,
    );
    expect(isForeignKeyConstraintViolation(adapterError('RestrictViolation', '23001'))).toBe(true);
  });

  it('does not mistake one kind of failure for the other, or other errors for either', () => {
    const unique = new PrismaClientKnownRequestError('dup', { code: 'P2002' });
    expect(isForeignKeyConstraintViolation(unique)).toBe(false);
    expect(isUniqueConstraintViolation(new PrismaClientKnownRequestError('fk', { code: 'P2003' }))).toBe(
      false,
    );
    expect(isUniqueConstraintViolation(new Error('P2002'))).toBe(false);
    expect(isUniqueConstraintViolation(undefined)).toBe(false);
  });
});
