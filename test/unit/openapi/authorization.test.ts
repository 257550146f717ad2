import { describe, expect, it } from 'vitest';
import { credentialsOf } from '../../../src/openapi/authorization.js';

describe('the Authorization header form', () => {
  it.each([
    ['Bearer abc', 'Bearer', 'abc'],
    ['bearer  a-b.c_d~e+f/g== ', 'Bearer', 'a-b.c_d~e+f/g=='],
    ['BASIC dXNlcjpwYXNz', 'basic', 'dXNlcjpwYXNz'],
    ['Digest x', 'digest', 'x'],
  ])('%j of scheme %s is the credentials %j', (value, scheme, credentials) => {
    expect(credentialsOf(value, scheme)).toBe(credentials);
  });

  it.each([
    ['Bearer', 'Bearer'],
    ['Bearer ', 'Bearer'],
    ['Bearerabc', 'Bearer'],
    ['Bearer a b', 'Bearer'],
    ['Bearer a=b', 'Bearer'],
    ['Bearer é', 'Bearer'],
    [' Bearer abc', 'Bearer'],
    ['Basic abc', 'Bearer'],
    ['Bearer abc', 'Basic'],
    ['XzY abc', 'x.y'],
  ])('%j is no credentials of scheme %s', (value, scheme) => {
    expect(credentialsOf(value, scheme)).toBeUndefined();
  });
});
