// The server <-> client contract binds each custom request to its params and result: a mismatched
// request does not compile. The @ts-expect-error lines are the test: `npm test`'s tsc run fails when
// one of them compiles.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Requests, type RequestMethod, type RequestResult, type RequestTypes } from '@appset-tools/protocol';
import { request, type RequestSender } from '../../client/src/request';

/** A sender that records what `request` sends and answers `reply`. */
function recorder(reply: unknown): RequestSender & { sent: [string, unknown][] } {
  const sent: [string, unknown][] = [];
  return {
    sent,
    sendRequest: <R>(method: string, params: unknown) => {
      sent.push([method, params]);
      return Promise.resolve(reply as R);
    },
  };
}

test('request() sends the method and params as written and hands back the typed result', async () => {
  const client = recorder({ appsets: [] });
  const info = await request(client, Requests.fileInfo, { uri: 'file:///a.yaml' });
  assert.deepEqual(info, { appsets: [] });
  assert.deepEqual(client.sent, [['appsetTools/fileInfo', { uri: 'file:///a.yaml' }]]);
});

test('a request with the wrong params or read as the wrong result does not compile', () => {
  const client = recorder(null);
  const mismatched = async () => {
    // @ts-expect-error fileInfo takes DocumentRequestParams (uri), not a path
    await request(client, Requests.fileInfo, { path: '/a.yaml' });
    // @ts-expect-error offset is a number
    await request(client, Requests.preview, { uri: 'file:///a.yaml', offset: '3' });
    // @ts-expect-error the rollout plan's result is no PreviewResult
    const preview: { yaml: string } | null = await request(client, Requests.rolloutPlan, { uri: 'file:///a.yaml' });
    // @ts-expect-error an unlisted method is no request
    await request(client, 'appsetTools/nope', { uri: 'file:///a.yaml' });
    return preview;
  };
  assert.equal(typeof mismatched, 'function');
  // Every method of `Requests` has its row in the table (a missing row fails to compile here).
  const rows: { [M in RequestMethod]: RequestTypes[M] extends { params: unknown; result: unknown } ? true : never } = {
    'appsetTools/preview': true,
    'appsetTools/rolloutPlan': true,
    'appsetTools/fileInfo': true,
    'appsetTools/changeTexts': true,
    'appsetTools/changeSummary': true,
  };
  assert.deepEqual(Object.keys(rows).sort(), Object.values(Requests).sort());
  const plan: RequestResult<typeof Requests.rolloutPlan> = null;
  assert.equal(plan, null);
});
