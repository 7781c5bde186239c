import { useTestApp, signTestToken, generateRsaKeyPair } from '../src';
import jwt from 'jsonwebtoken';
import { querySource } from '../src';

const service = useTestApp(async (source) => ({
  app: async (req, res) => {
    const rows = await querySource<{ count: number }>(source, 'SELECT count(*)::int AS count FROM notes');
    res.setHeader('content-type', 'application/json');
    res.end(JSON.stringify({ path: req.url, notes: rows[0]?.count }));
  },
  close: async () => {},
}));

describe('useTestApp', () => {
  it('serves the real app over its own migrated database', async () => {
    const response = await service.request.get('/anything').expect(200);
    expect(response.body).toEqual({ path: '/anything', notes: 0 });
  });

  it('exposes a base URL that real HTTP clients can call', async () => {
    const response = await fetch(`${service.baseUrl}/via-fetch`);
    expect(await response.json()).toEqual({ path: '/via-fetch', notes: 0 });
  });
});

describe('token helpers', () => {
  it('signs HS256 tokens that verify with the secret', () => {
    const token = signTestToken({ principal: 'alice' }, { algorithm: 'HS256', secret: 's3cret' });
    expect(jwt.verify(token, 's3cret', { algorithms: ['HS256'] })).toMatchObject({ principal: 'alice' });
  });

  it('signs RS256 tokens that verify with the public key only', () => {
    const { publicKey, privateKey } = generateRsaKeyPair();
    const token = signTestToken({ sub: 'bob' }, { algorithm: 'RS256', privateKey, keyId: 'k1' });
    expect(jwt.verify(token, publicKey, { algorithms: ['RS256'] })).toMatchObject({ sub: 'bob' });
    expect(jwt.decode(token, { complete: true })?.header.kid).toBe('k1');
  });
});
