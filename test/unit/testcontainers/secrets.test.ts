/**
 * The Testcontainers module refuses the documented secrets and a short admin
 * token at once, in its own words: the image's sandbox listens on 0.0.0.0,
 * where it would refuse them anyway, but only after a container was made.
 * No container runtime is needed: nothing is started.
 */
import { describe, expect, it } from 'vitest';
import { PetStoreSandboxContainer } from '../../../src/testcontainers/index.js';

describe('PetStoreSandboxContainer secrets', () => {
  it('refuses the documented admin token, by option and by method', () => {
    expect(() => new PetStoreSandboxContainer('image', { adminToken: 'sandbox-admin' })).toThrow(/'sandbox-admin' is the documented default/);
    expect(() => new PetStoreSandboxContainer('image').withAdminToken('sandbox-admin')).toThrow(/documented default/);
  });

  it('refuses an admin token under 16 characters', () => {
    expect(() => new PetStoreSandboxContainer('image').withAdminToken('a'.repeat(15))).toThrow(/at least 16 characters/);
    expect(() => new PetStoreSandboxContainer('image').withAdminToken('a'.repeat(16))).not.toThrow();
  });

  it('refuses the documented API key among the keys', () => {
    expect(() => new PetStoreSandboxContainer('image', { apiKeys: ['own-key', 'sandbox-key'] })).toThrow(/'sandbox-key' is the documented default/);
    expect(() => new PetStoreSandboxContainer('image').withApiKeys('sandbox-key')).toThrow(/documented default/);
    expect(() => new PetStoreSandboxContainer('image').withApiKeys('own-key')).not.toThrow();
  });
});
