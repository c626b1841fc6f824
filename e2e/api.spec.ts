import { expect, test } from '@playwright/test';

test.describe('POST /api/v1/tools/{name}/invoke', () => {
  test('runs a bundled tool and returns its result', async ({ request }) => {
    const res = await request.post('/api/v1/tools/count-words/invoke', { data: { args: { text: 'one two three' } } });
    expect(res.status()).toBe(200);
    const body = await res.json();
    expect(body.skill).toBe('@skillyard/text-stats');
    expect(body.result.words).toBe(3);
  });

  test('answers clear JSON errors with the right status, and keeps serving', async ({ request }) => {
    const unknown = await request.post('/api/v1/tools/no-such-tool/invoke', { data: { args: {} } });
    expect(unknown.status()).toBe(404);
    expect((await unknown.json()).error.code).toBe('tool/not-found');

    const badArgs = await request.post('/api/v1/tools/count-words/invoke', { data: { args: { text: 7 } } });
    expect(badArgs.status()).toBe(400);
    expect((await badArgs.json()).error.code).toBe('params/invalid');

    const badName = await request.post('/api/v1/tools/BAD%20NAME/invoke', { data: {} });
    expect(badName.status()).toBe(400);

    const notJson = await request.post('/api/v1/tools/count-words/invoke', {
      headers: { 'content-type': 'application/json' },
      data: Buffer.from('{not json'),
    });
    expect(notJson.status()).toBe(400);
    expect((await notJson.json()).error.code).toBe('input/invalid-json');

    const badToken = await request.post('/api/v1/tools/count-words/invoke', {
      headers: { authorization: 'Bearer sy_00000000_not-a-real-token-at-all' },
      data: { args: { text: 'x' } },
    });
    expect(badToken.status()).toBe(401);

    const gated = await request.post('/api/v1/tools/list-my-repos/invoke', { data: { args: {} } });
    expect(gated.status()).toBe(403);
    expect((await gated.json()).error.code).toBe('token/missing');

    const after = await request.post('/api/v1/tools/count-words/invoke', { data: { args: { text: 'still serving' } } });
    expect(after.status()).toBe(200);
  });
});

test('/api/v1/openapi.json describes the API', async ({ request }) => {
  const res = await request.get('/api/v1/openapi.json');
  expect(res.status()).toBe(200);
  const doc = await res.json();
  expect(doc.openapi).toBe('3.1.0');
  expect(Object.keys(doc.paths)).toEqual(expect.arrayContaining(['/api/v1/tools/{name}/invoke', '/api/v1/runs/{id}/events']));
});
