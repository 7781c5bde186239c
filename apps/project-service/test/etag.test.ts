import { etagOf, notModified, revisionsAllowedBy } from '../src/http/etag';

describe('If-Match', () => {
  it.each([
    ['*', undefined],
    ['"b1", *', undefined],
    ['"b3"', [3]],
    ['b3', [3]],
    ['"b1", "b2" , b7', [1, 2, 7]],
    ['W/"b3"', []],
    ['"s3"', []],
    ['"*"', []],
    ['"b03"', []],
    ['"b2147483647"', [2147483647]],
    ['"b2147483648"', []],
    ['garbage, ,', []],
  ])('%j allows %j', (header, allowed) => {
    expect(revisionsAllowedBy(header, 'base')).toEqual(allowed);
  });

  it('allows any revision without the header', () => {
    expect(revisionsAllowedBy(undefined, 'settings')).toBeUndefined();
  });

  it('reads the settings counter by its own prefix', () => {
    expect(revisionsAllowedBy(etagOf('settings', 4), 'settings')).toEqual([4]);
    expect(revisionsAllowedBy(etagOf('settings', 4), 'base')).toEqual([]);
  });
});

describe('If-None-Match', () => {
  it.each([
    ['*', true],
    ['"b5"', true],
    ['b5', true],
    ['W/"b5"', true],
    ['"b4", W/"b5"', true],
    ['"b4"', false],
    ['"b05"', false],
    ['"s5"', false],
    ['"*"', false],
    ['garbage', false],
  ])('%j: not modified is %j at revision 5', (header, expected) => {
    expect(notModified(header, 'base', 5)).toBe(expected);
  });

  it('is modified without the header', () => {
    expect(notModified(undefined, 'base', 1)).toBe(false);
  });
});
