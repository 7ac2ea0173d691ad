/**
 * A local npm registry for the publish → install path, small enough to read: it takes `npm publish`
 * (PUT /<name> with the manifest and the tarball as a base64 attachment, bearer token required) and
 * serves what `npm install` and `npx` ask for, as the public registry does: the packument
 * (GET /<name>: dist-tags and every version's manifest, `dist.tarball` pointing back here) and the
 * tarball (GET /<name>/-/<file>.tgz), checked against the integrity npm computed when publishing.
 * Anything else is a 404, so an install that needs a package we did not publish fails.
 */
import { createHash } from 'node:crypto';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface LocalRegistry {
  /** http://127.0.0.1:<port>/ */
  url: string;
  /** The token npm must send to publish (write it as `//127.0.0.1:<port>/:_authToken=<token>`). */
  token: string;
  /** What was asked of it, `METHOD /path status`, in order. */
  requests: string[];
  close(): Promise<void>;
}

interface Packument {
  name: string;
  'dist-tags': Record<string, string>;
  versions: Record<string, Record<string, any>>;
  time: Record<string, string>;
}

const body = (req: IncomingMessage): Promise<Buffer> =>
  new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
    req.on('error', reject);
  });

export async function startRegistry(): Promise<LocalRegistry> {
  const token = 'local-test-token';
  const packages = new Map<string, Packument>();
  const tarballs = new Map<string, Buffer>();
  const requests: string[] = [];
  let url = '';

  const server: Server = createServer(async (req, res) => {
    const path = decodeURIComponent((req.url ?? '/').split('?')[0]);
    const send = (status: number, json: unknown, type = 'application/json') => {
      requests.push(`${req.method} ${path} ${status}`);
      res.writeHead(status, { 'content-type': type });
      res.end(Buffer.isBuffer(json) ? json : JSON.stringify(json));
    };
    try {
      const tgz = /^\/(.+)\/-\/([^/]+\.tgz)$/.exec(path);
      if (req.method === 'GET' && tgz) {
        const data = tarballs.get(`${tgz[1]}/${tgz[2]}`);
        return data ? send(200, data, 'application/octet-stream') : send(404, { error: 'not found' });
      }
      const name = path.slice(1);
      if (req.method === 'GET') {
        const p = packages.get(name);
        return p ? send(200, p) : send(404, { error: 'not found' });
      }
      if (req.method === 'PUT' && !name.includes('/-/')) {
        if (req.headers.authorization !== `Bearer ${token}`) return send(401, { error: 'unauthorized' });
        const doc = JSON.parse((await body(req)).toString('utf8'));
        const p: Packument = packages.get(name) ?? { name, 'dist-tags': {}, versions: {}, time: {} };
        for (const [version, manifest] of Object.entries<Record<string, any>>(doc.versions ?? {})) {
          if (p.versions[version]) return send(403, { error: `cannot publish over ${name}@${version}` });
          const file = `${name.replace(/^@[^/]+\//, '')}-${version}.tgz`;
          const attachment = doc._attachments?.[file];
          if (!attachment) return send(400, { error: `no attachment ${file}` });
          const data = Buffer.from(attachment.data, 'base64');
          const integrity = 'sha512-' + createHash('sha512').update(data).digest('base64');
          if (manifest.dist?.integrity !== integrity) return send(400, { error: 'integrity mismatch' });
          tarballs.set(`${name}/${file}`, data);
          p.versions[version] = { ...manifest, dist: { ...manifest.dist, tarball: `${url}${name}/-/${file}` } };
          p.time[version] = new Date().toISOString();
        }
        Object.assign(p['dist-tags'], doc['dist-tags']);
        packages.set(name, p);
        return send(201, { ok: true });
      }
      return send(404, { error: 'not found' });
    } catch (e) {
      return send(500, { error: String(e) });
    }
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/`;
  return {
    url,
    token,
    requests,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}
